/*
 * seeds/pool_shutdown_lost_broadcast_ok.c -- fixed version of seeds/pool_shutdown_lost_broadcast_bad.c (seqloc benchmark).
 *
 * lost signal. Two pool workers
 * each do one job and then park until main announces the shutdown with a
 * broadcast on shutdown_cv; main then joins them.
 *
 * Fix: A worker parks only while shutting_down is not set (while loop around the wait).
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

#define WORKERS 2

pthread_mutex_t pool_lock;
pthread_cond_t shutdown_cv;
int shutting_down = 0;
int jobs_done = 0;

void *pool_worker(void *arg)
{
  int job = *(int *)arg;
  pthread_mutex_lock(&pool_lock);
  if (!shutting_down)
    jobs_done = jobs_done + job;
  while (!shutting_down)
    pthread_cond_wait(&shutdown_cv, &pool_lock);
  pthread_mutex_unlock(&pool_lock);
  return 0;
}

int main(void)
{
  pthread_t w[WORKERS];
  int job[WORKERS];
  int i;
  pthread_mutex_init(&pool_lock, 0);
  pthread_cond_init(&shutdown_cv, 0);
  for (i = 0; i < WORKERS; i++) {
    job[i] = i + 1;
    pthread_create(&w[i], 0, pool_worker, &job[i]);
  }
  pthread_mutex_lock(&pool_lock);
  shutting_down = 1;
  pthread_cond_broadcast(&shutdown_cv);
  pthread_mutex_unlock(&pool_lock);
  for (i = 0; i < WORKERS; i++)
    pthread_join(w[i], 0);
  return 0;
}
