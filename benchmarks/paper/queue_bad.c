/*
 * paper/queue_bad.c -- seqloc benchmark, Table III pattern "queue_bad".
 * A bounded queue shared by one producer and two consumers. Two access-control
 * flags, may_put and may_get, make producer and consumers alternate; the
 * queue and the flags are guarded by one mutex. dequeue asserts that the
 * queue is not empty.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation
 * Faulty lines: 70, 71. A consumer tests may_get (70) before taking
 *   the mutex (L71); two consumers can both see the flag set and both
 *   dequeue the single element. The test belongs inside the critical section.
 *
 * Failing interleaving (4 context switches):
 *   main: L84,L85,L86 create producer P, consumers C1, C2; L87 join(P) blocks
 *   P:    i=0: L58 enqueue(7), may_put = 0, L60 may_get = 1; i=1: may_put
 *         is 0, nothing; P ends                                        [switch 1]
 *   C1:   L70 may_get is 1                                             [switch 2]
 *   C2:   L70 may_get is 1, L71 lock, dequeue -> 7, may_get = 0, may_put = 1,
 *         unlock; C2 ends                                              [switch 3]
 *   C1:   L71 lock, dequeue: L44 assertion fails (q_len == 0)          [switch 4]
 */
#include <pthread.h>
#include <assert.h>

#define QSIZE 3

int q[QSIZE];
int q_head = 0, q_tail = 0, q_len = 0;
int may_put = 1, may_get = 0;
int received = 0;
pthread_mutex_t qm;

void enqueue(int v)
{
  q[q_tail] = v;
  q_tail = (q_tail + 1) % QSIZE;
  q_len = q_len + 1;
}

int dequeue(void)
{
  int v;
  assert(q_len > 0);
  v = q[q_head];
  q_head = (q_head + 1) % QSIZE;
  q_len = q_len - 1;
  return v;
}

void *producer(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&qm);
    if (may_put) {
      enqueue(7 + i);
      may_put = 0;
      may_get = 1;
    }
    pthread_mutex_unlock(&qm);
  }
  return 0;
}

void *consumer(void *arg)
{
  (void)arg;
  if (may_get) {
    pthread_mutex_lock(&qm);
    received = received + dequeue();
    may_get = 0;
    may_put = 1;
    pthread_mutex_unlock(&qm);
  }
  return 0;
}

int main(void)
{
  pthread_t p, c1, c2;
  pthread_mutex_init(&qm, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&c2, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c1, 0);
  pthread_join(c2, 0);
  return 0;
}
