/*
 * correct/arithmetic_prog_ok.c -- fixed version of paper/arithmetic_prog_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern
 * "arithmetic_prog_bad". A producer hands the values 10 and 20 to a consumer
 * through a one-place slot guarded by a mutex and two condition variables;
 * the consumer adds them up.
 *
 * Fix: The consumer reads the slot before it marks it free and releases the mutex.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

#define ITEMS 2

pthread_mutex_t m;
pthread_cond_t slot_free, slot_full;
int slot;
int full = 0;
int total = 0;

void *producer(void *arg)
{
  int i;
  (void)arg;
  for (i = 1; i <= ITEMS; i++) {
    pthread_mutex_lock(&m);
    while (full)
      pthread_cond_wait(&slot_free, &m);
    slot = 10 * i;
    full = 1;
    pthread_cond_signal(&slot_full);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg)
{
  int i, v;
  (void)arg;
  for (i = 1; i <= ITEMS; i++) {
    pthread_mutex_lock(&m);
    while (!full)
      pthread_cond_wait(&slot_full, &m);
    v = slot;
    full = 0;
    pthread_cond_signal(&slot_free);
    pthread_mutex_unlock(&m);
    total = total + v;
  }
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&slot_free, 0);
  pthread_cond_init(&slot_full, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  assert(total == 10 + 20);
  return 0;
}
