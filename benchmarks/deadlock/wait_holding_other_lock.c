/*
 * deadlock/wait_holding_other_lock.c -- a thread waits on a condition
 * variable while holding a second mutex that the signalling thread needs.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (wait while holding another lock)
 * Faulty line: 28. The consumer takes table_lock (28) before waiting on
 *   queue_cv; pthread_cond_wait releases only queue_lock, and the producer
 *   needs table_lock before it can queue the item and signal. The consumer
 *   should take table_lock after the wait.
 *
 * Deadlocking interleaving (2 context switches):
 *   main: L58,L59 create consumer C and producer P; L60 join(C) blocks
 *   C:    L28 locks table_lock, locks queue_lock, L31 queued is 0, waits [switch 1]
 *   P:    L42 blocks on table_lock                                     [switch 2]
 *   main waits for C, C for queue_cv, P for table_lock: deadlock.
 */
#include <pthread.h>

pthread_mutex_t table_lock, queue_lock;
pthread_cond_t queue_cv;
int queued = 0;
int table_rows = 0;

void *consumer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&table_lock);
  pthread_mutex_lock(&queue_lock);
  while (queued == 0)
    pthread_cond_wait(&queue_cv, &queue_lock);
  queued = queued - 1;
  pthread_mutex_unlock(&queue_lock);
  table_rows = table_rows + 1;
  pthread_mutex_unlock(&table_lock);
  return 0;
}

void *producer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&table_lock);
  table_rows = table_rows + 1;
  pthread_mutex_unlock(&table_lock);
  pthread_mutex_lock(&queue_lock);
  queued = queued + 1;
  pthread_cond_signal(&queue_cv);
  pthread_mutex_unlock(&queue_lock);
  return 0;
}

int main(void)
{
  pthread_t c, p;
  pthread_mutex_init(&table_lock, 0);
  pthread_mutex_init(&queue_lock, 0);
  pthread_cond_init(&queue_cv, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(c, 0);
  pthread_join(p, 0);
  return 0;
}
