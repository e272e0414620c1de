/*
 * correct/lazy01_ok.c -- fixed version of paper/lazy01_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern "lazy01_bad".
 * Two adders add 2 and 3 to a mutex-guarded sum, one unit at a time; an
 * auditor reads the sum under the mutex and checks that each addition is
 * seen either completely or not at all.
 *
 * Fix: add_units holds the mutex around the whole loop, so an addition is seen all or nothing.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t sum_lock;
int sum = 0;

void add_units(int n)
{
  int i;
  pthread_mutex_lock(&sum_lock);
  for (i = 0; i < n; i++)
    sum = sum + 1;
  pthread_mutex_unlock(&sum_lock);
}

void *adder_a(void *arg)
{
  (void)arg;
  add_units(2);
  return 0;
}

void *adder_b(void *arg)
{
  (void)arg;
  add_units(3);
  return 0;
}

void *auditor(void *arg)
{
  int s;
  (void)arg;
  pthread_mutex_lock(&sum_lock);
  s = sum;
  pthread_mutex_unlock(&sum_lock);
  assert(s == 0 || s == 2 || s == 3 || s == 5);
  return 0;
}

int main(void)
{
  pthread_t a, b, c;
  pthread_mutex_init(&sum_lock, 0);
  pthread_create(&a, 0, adder_a, 0);
  pthread_create(&b, 0, adder_b, 0);
  pthread_create(&c, 0, auditor, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
