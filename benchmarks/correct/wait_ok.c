/*
 * correct/wait_ok.c -- fixed version of deadlock/wait_holding_other_lock.c (seqloc benchmark).
 *
 * a thread waits on a condition
 * variable while holding a second mutex that the signalling thread needs.
 *
 * Fix: The consumer takes table_lock only after the wait has returned and queue_lock is released.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_mutex_t table_lock, queue_lock;
pthread_cond_t queue_cv;
int queued = 0;
int table_rows = 0;

void *consumer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&queue_lock);
  while (queued == 0)
    pthread_cond_wait(&queue_cv, &queue_lock);
  queued = queued - 1;
  pthread_mutex_unlock(&queue_lock);
  pthread_mutex_lock(&table_lock);
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
