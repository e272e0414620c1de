/*
 * correct/lazy_init_ok.c -- fixed version of concbugs/lazy_init_twice.c (seqloc benchmark).
 *
 * single-variable atomicity violation
 * (double initialisation). Clients lazily initialise a shared hit counter
 * on first use, then count one hit each under a mutex.
 *
 * Fix: The test of "ready" and the initialisation happen under the mutex.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int ready = 0;
int hits;

void ensure_ready(void)
{
  pthread_mutex_lock(&m);
  if (!ready) {
    hits = 0;
    ready = 1;
  }
  pthread_mutex_unlock(&m);
}

void *client(void *arg)
{
  (void)arg;
  ensure_ready();
  pthread_mutex_lock(&m);
  hits = hits + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, client, 0);
  pthread_create(&b, 0, client, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2);
  return 0;
}
