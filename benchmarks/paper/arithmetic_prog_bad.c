/*
 * paper/arithmetic_prog_bad.c -- seqloc benchmark, Table III pattern
 * "arithmetic_prog_bad". A producer hands the values 10 and 20 to a consumer
 * through a one-place slot guarded by a mutex and two condition variables;
 * the consumer adds them up.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation
 * Faulty lines: 61, 62. The consumer marks the slot free and releases
 *   the mutex (L61) before it reads the slot (L62), so the producer can
 *   overwrite the slot with the next value in between. The read belongs
 *   inside the critical section.
 *
 * Failing interleaving (5 context switches):
 *   main: L74,L75 create producer P and consumer C; L76 join(P) blocks
 *   P:    i=1: L43 slot = 10, L44 full = 1, unlock; i=2: L41 full,
 *         so it waits                                                  [switch 1]
 *   C:    i=1: L59 full = 0, signal, L61 unlock                        [switch 2]
 *   P:    wakes, L43 slot = 20, full = 1, unlock; P ends               [switch 3]
 *   C:    L62 v = 20 (the 10 is lost), total = 20; i=2: takes 20 again,
 *         total = 40; C ends                                           [switch 4]
 *   main: joins return; L78 assertion fails (40 != 30)                 [switch 5]
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
    full = 0;
    pthread_cond_signal(&slot_free);
    pthread_mutex_unlock(&m);
    v = slot;
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
