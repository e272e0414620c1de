/*
 * deadlock/signal_before_predicate.c -- lost wakeup: the condition variable
 * is signalled without the predicate being set. A starter releases a runner
 * that waits (correctly, in a while loop) until "ready" is set.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (signal without the predicate)
 * Faulty lines: 29, 31. The starter signals (29) before it sets the
 *   predicate, and sets it (L31) after releasing the mutex without signalling
 *   again. "ready = 1" belongs before the signal, inside the critical section.
 *
 * Deadlocking interleaving (3 context switches):
 *   main: L50,L51 create starter S and runner R; L52 join(R) blocks
 *   S:    lock, L29 signal (no waiter yet), unlock                     [switch 1]
 *   R:    lock, L39 ready is 0, L40 waits                              [switch 2]
 *   S:    L31 ready = 1, no signal; S ends                             [switch 3]
 *   main waits for R, R for a signal: deadlock.
 */
#include <pthread.h>

pthread_mutex_t m;
pthread_cond_t go_cv;
int ready = 0;

void *starter(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  pthread_cond_signal(&go_cv);
  pthread_mutex_unlock(&m);
  ready = 1;
  return 0;
}

void *runner(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&go_cv, &m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t s, r;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&go_cv, 0);
  pthread_create(&s, 0, starter, 0);
  pthread_create(&r, 0, runner, 0);
  pthread_join(r, 0);
  pthread_join(s, 0);
  return 0;
}
