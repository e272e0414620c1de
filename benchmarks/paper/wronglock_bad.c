/*
 * paper/wronglock_bad.c -- seqloc benchmark, Table III pattern
 * "wronglock_bad". Six producers each add one to a counter under
 * count_lock and check that their increment took effect; a drainer moves one
 * unit from the counter to its own statistics.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (wrong lock)
 * Faulty lines: 48, 54. The drainer protects its read-modify-write of
 *   "produced" with stats_lock, which no producer takes; it must hold
 *   count_lock (stats_lock only guards "drained").
 *
 * Failing interleaving (3 context switches):
 *   main: L65 creates producers P1..P6, L66 the drainer D; L68 join(P1) blocks
 *   P1:   L36 lock count_lock, L37 before = 0, L38 produced = 1        [switch 1]
 *   D:    L48 lock stats_lock, L49 n = 1, L51 produced = 0, drained = 1 [switch 2]
 *   P1:   L39 fails (produced is 0, not 1)                             [switch 3]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "wronglock_bad.c", 23, "reach_error"); }
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
  pthread_mutex_lock(&stats_lock);
  n = produced;
  if (n > 0) {
    produced = n - 1;
    drained = drained + 1;
  }
  pthread_mutex_unlock(&stats_lock);
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
