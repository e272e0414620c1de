/*
 * correct/signal_ok.c -- fixed version of deadlock/signal_before_predicate.c (seqloc benchmark).
 *
 * lost wakeup: the condition variable
 * is signalled without the predicate being set. A starter releases a runner
 * that waits (correctly, in a while loop) until "ready" is set.
 *
 * Fix: The starter sets "ready" under the mutex before signalling.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_mutex_t m;
pthread_cond_t go_cv;
int ready = 0;

void *starter(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&go_cv);
  pthread_mutex_unlock(&m);
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
