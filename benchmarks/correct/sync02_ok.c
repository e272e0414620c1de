/*
 * correct/sync02_ok.c -- fixed version of paper/sync02_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern "sync02_bad".
 * A producer and a consumer exchange two items; "pending" counts the items
 * produced but not yet consumed. Both wait on one condition variable and
 * broadcast after each change.
 *
 * Fix: main initialises the pending-items counter to 0.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

#define ROUNDS 2

pthread_mutex_t m;
pthread_cond_t changed;
int pending;

void *producer(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < ROUNDS; i++) {
    pthread_mutex_lock(&m);
    while (pending > 0)
      pthread_cond_wait(&changed, &m);
    pending = pending + 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < ROUNDS; i++) {
    pthread_mutex_lock(&m);
    while (pending == 0)
      pthread_cond_wait(&changed, &m);
    pending = pending - 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&changed, 0);
  pending = 0;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
