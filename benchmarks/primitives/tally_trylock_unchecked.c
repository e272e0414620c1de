/*
 * primitives/tally_trylock_unchecked.c -- a trylock whose failure is not
 * handled. Counters add their votes to a shared tally. Each takes the tally's
 * mutex with pthread_mutex_trylock so as not to wait -- but when the mutex is
 * busy it updates the tally anyway, without it, and only skips the unlock.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: wrong-lock (trylock used as lock)
 * Faulty line: 30. The counter must wait for the mutex
 *   (pthread_mutex_lock), or retry until trylock succeeds.
 *
 * Failing interleaving (2 context switches):
 *   counter A: L30 takes the mutex, L31 reads tally (0)          [switch 1]
 *   counter B: L30 trylock fails (busy), L31-L32 tally = 2       [switch 2]
 *   counter A: L32 tally = 3 (B's votes lost); main's check fails.
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
int tally = 0;

struct votes {
  int count;
};

void *counter(void *arg)
{
  struct votes *v = arg;
  int busy = pthread_mutex_trylock(&tally_lock);
  int t = tally;
  tally = t + v->count;
  if (!busy)
    pthread_mutex_unlock(&tally_lock);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  struct votes va = {3}, vb = {2};
  pthread_create(&a, 0, counter, &va);
  pthread_create(&b, 0, counter, &vb);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(tally == 5);
  return 0;
}
