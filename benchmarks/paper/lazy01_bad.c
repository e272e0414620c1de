/*
 * paper/lazy01_bad.c -- seqloc benchmark, Table III pattern "lazy01_bad".
 * Two adders add 2 and 3 to a mutex-guarded sum, one unit at a time; an
 * auditor reads the sum under the mutex and checks that each addition is
 * seen either completely or not at all.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation
 * Faulty lines: 28, 30. add_units takes and releases the mutex inside the
 *   loop ("lazy" locking), so a partial addition is visible between two
 *   iterations. The lock belongs around the whole loop.
 *
 * Failing interleaving (2 context switches):
 *   main: L63,L64,L65 create adders A, B and auditor C; L66 join(A) blocks
 *   A:    i=0: L28 lock, L29 sum = 1, L30 unlock                       [switch 1]
 *   C:    L53 s = 1; L55 assertion fails                               [switch 2]
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t sum_lock;
int sum = 0;

void add_units(int n)
{
  int i;
  for (i = 0; i < n; i++) {
    pthread_mutex_lock(&sum_lock);
    sum = sum + 1;
    pthread_mutex_unlock(&sum_lock);
  }
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
