/*
 * correct/sync01_ok.c -- fixed version of paper/sync01_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern "sync01_bad".
 * A producer and a consumer pass two items through a one-place store
 * guarded by a mutex and two condition variables.
 *
 * Fix: The consumer waits while the store is empty.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

#define ROUNDS 2

pthread_mutex_t m;
pthread_cond_t has_room, has_data;
int stored = 0;

void *producer(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < ROUNDS; i++) {
    pthread_mutex_lock(&m);
    while (stored == 1)
      pthread_cond_wait(&has_room, &m);
    stored = stored + 1;
    pthread_cond_signal(&has_data);
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
    while (stored == 0)
      pthread_cond_wait(&has_data, &m);
    stored = stored - 1;
    pthread_cond_signal(&has_room);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&has_room, 0);
  pthread_cond_init(&has_data, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
