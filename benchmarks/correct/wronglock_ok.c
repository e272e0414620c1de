/*
 * correct/wronglock_ok.c -- fixed version of paper/wronglock_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern
 * "wronglock_bad". Six producers each add one to a counter under
 * count_lock and check that their increment took effect; a drainer moves one
 * unit from the counter to its own statistics.
 *
 * Fix: The drainer holds count_lock (then stats_lock) while it moves a unit.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "wronglock_ok.c", 17, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define PRODUCERS 6

pthread_mutex_t count_lock, stats_lock;
int produced = 0;
int drained = 0;

void *producer(void *arg)
{
  int before;
  (void)arg;
  pthread_mutex_lock(&count_lock);
  before = produced;
  produced = before + 1;
  __VERIFIER_assert(produced == before + 1);
  pthread_mutex_unlock(&count_lock);
  return 0;
}

void *drainer(void *arg)
{
  int n;
  (void)arg;
  pthread_mutex_lock(&count_lock);
  pthread_mutex_lock(&stats_lock);
  n = produced;
  if (n > 0) {
    produced = n - 1;
    drained = drained + 1;
  }
  pthread_mutex_unlock(&stats_lock);
  pthread_mutex_unlock(&count_lock);
  return 0;
}

int main(void)
{
  pthread_t p[PRODUCERS], d;
  int i;
  pthread_mutex_init(&count_lock, 0);
  pthread_mutex_init(&stats_lock, 0);
  for (i = 0; i < PRODUCERS; i++)
    pthread_create(&p[i], 0, producer, 0);
  pthread_create(&d, 0, drainer, 0);
  for (i = 0; i < PRODUCERS; i++)
    pthread_join(p[i], 0);
  pthread_join(d, 0);
  return 0;
}
