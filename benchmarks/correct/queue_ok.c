/*
 * correct/queue_ok.c -- fixed version of paper/queue_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern "queue_bad".
 * A bounded queue shared by one producer and two consumers. Two access-control
 * flags, may_put and may_get, make producer and consumers alternate; the
 * queue and the flags are guarded by one mutex. dequeue asserts that the
 * queue is not empty.
 *
 * Fix: A consumer tests may_get inside the critical section.
 *
 * Expected verdict: true (unreach-call)
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
  pthread_mutex_lock(&qm);
  if (may_get) {
    received = received + dequeue();
    may_get = 0;
    may_put = 1;
  }
  pthread_mutex_unlock(&qm);
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
