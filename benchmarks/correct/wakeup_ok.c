/*
 * correct/wakeup_ok.c -- fixed version of deadlock/lost_wakeup_nopred.c (seqloc benchmark).
 *
 * lost wakeup: the condition variable is
 * signalled before the waiter waits. A worker computes a result, sets
 * "done" and signals; a waiter waits for the signal.
 *
 * Fix: The waiter tests the predicate "done" in a while loop before waiting.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_mutex_t m;
pthread_cond_t done_cv;
int done = 0;
int result = 0;
int seen = 0;

void *worker(void *arg)
{
  (void)arg;
  result = 42;
  pthread_mutex_lock(&m);
  done = 1;
  pthread_cond_signal(&done_cv);
  pthread_mutex_unlock(&m);
  return 0;
}

void *waiter(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  while (!done)
    pthread_cond_wait(&done_cv, &m);
  seen = result;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t w, v;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&done_cv, 0);
  pthread_create(&w, 0, worker, 0);
  pthread_create(&v, 0, waiter, 0);
  pthread_join(v, 0);
  pthread_join(w, 0);
  return 0;
}
