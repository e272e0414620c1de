/*
 * seeds/dispatch_wait_holds_pool_ok.c -- fixed version of seeds/dispatch_wait_holds_pool_bad.c (seqloc benchmark).
 *
 * condition wait while holding a
 * second mutex. A worker pool's dispatcher waits for a queued job and then
 * marks a worker busy; a submitter counts the job in the pool statistics and
 * then queues it. pool_lock guards the statistics, queue_lock the queue.
 *
 * Fix: The dispatcher takes pool_lock after the wait, once queue_lock is released.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_mutex_t pool_lock;    /* guards busy_workers, submitted */
pthread_mutex_t queue_lock;   /* guards queued */
pthread_cond_t job_ready;
int queued = 0;
int busy_workers = 0;
int submitted = 0;

void *dispatcher(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&queue_lock);
  while (queued == 0)
    pthread_cond_wait(&job_ready, &queue_lock);
  queued = queued - 1;
  pthread_mutex_unlock(&queue_lock);
  pthread_mutex_lock(&pool_lock);
  busy_workers = busy_workers + 1;
  pthread_mutex_unlock(&pool_lock);
  return 0;
}

void *submitter(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&pool_lock);
  submitted = submitted + 1;
  pthread_mutex_unlock(&pool_lock);
  pthread_mutex_lock(&queue_lock);
  queued = queued + 1;
  pthread_cond_signal(&job_ready);
  pthread_mutex_unlock(&queue_lock);
  return 0;
}

int main(void)
{
  pthread_t d, s;
  pthread_mutex_init(&pool_lock, 0);
  pthread_mutex_init(&queue_lock, 0);
  pthread_cond_init(&job_ready, 0);
  pthread_create(&d, 0, dispatcher, 0);
  pthread_create(&s, 0, submitter, 0);
  pthread_join(d, 0);
  pthread_join(s, 0);
  return 0;
}
