/*
 * paper/sync01_bad.c -- seqloc benchmark, Table III pattern "sync01_bad".
 * A producer and a consumer pass two items through a one-place store
 * guarded by a mutex and two condition variables.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (the consumer never consumes)
 * Faulty line: 48. The consumer's wait condition is inverted: it waits while
 *   the store holds an item (stored != 0) instead of while it is empty, so
 *   it never takes the item the producer is waiting to have taken.
 *
 * Deadlocking interleaving (2 context switches):
 *   main: L63,L64 create producer P and consumer C; L65 join(P) blocks
 *   P:    i=0: L35 stored = 1, signal, unlock; i=1: L34 stored == 1, waits
 *                                                                      [switch 1]
 *   C:    i=0: L48 stored != 0, L49 waits                              [switch 2]
 *   Now main waits for P, P for has_room, C for has_data: deadlock.
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
    while (stored != 0)
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
