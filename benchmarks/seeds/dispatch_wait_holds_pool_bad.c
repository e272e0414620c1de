/*
 * seeds/dispatch_wait_holds_pool_bad.c -- condition wait while holding a
 * second mutex. A worker pool's dispatcher waits for a queued job and then
 * marks a worker busy; a submitter counts the job in the pool statistics and
 * then queues it. pool_lock guards the statistics, queue_lock the queue.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (wait holding another mutex)
 * Faulty line: 32. The dispatcher takes pool_lock (L32) before it waits on
 *   job_ready; pthread_cond_wait releases queue_lock only, so the submitter
 *   blocks on pool_lock before it can queue the job and signal. pool_lock
 *   must be taken after the wait, once queue_lock is released.
 *
 * Deadlocking interleaving (2 context switches):
 *   main: L62,L63 create dispatcher D and submitter S; L64 join(D) blocks
 *   D:    L32 locks pool_lock, L33 locks queue_lock, L35 queued == 0: waits [switch 1]
 *   S:    L46 blocks on pool_lock, held by D                 [switch 2]
 *   main waits for D, D for job_ready, S for pool_lock: deadlock.
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
  pthread_mutex_lock(&pool_lock);
  pthread_mutex_lock(&queue_lock);
  while (queued == 0)
    pthread_cond_wait(&job_ready, &queue_lock);
  queued = queued - 1;
  pthread_mutex_unlock(&queue_lock);
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
