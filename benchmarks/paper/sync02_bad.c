/*
 * paper/sync02_bad.c -- seqloc benchmark, Table III pattern "sync02_bad".
 * A producer and a consumer exchange two items; "pending" counts the items
 * produced but not yet consumed. Both wait on one condition variable and
 * broadcast after each change.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (shared counter initialised with arbitrary data)
 * Faulty line: 65. main initialises pending with an arbitrary value instead
 *   of 0. With pending >= 2 the consumer's two rounds are satisfied by
 *   phantom items and the producer waits forever for its item to be taken;
 *   with pending < 0 the consumer waits forever.
 *
 * Deadlocking interleaving (2 context switches), with nondet value 3:
 *   main: L65 pending = 3; L66,L67 create P and C; L68 join(P) blocks
 *   C:    i=0: L53 pending = 2; i=1: pending = 1; C ends               [switch 1]
 *   P:    i=0: L37 pending > 0, waits                                  [switch 2]
 *   main waits for P, P waits for a broadcast that never comes: deadlock.
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

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
  pending = __VERIFIER_nondet_int();
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
