/*
 * correct/join_order_ok.c -- fixed version of deadlock/join_cycle_threads.c (seqloc benchmark).
 *
 * join cycle between two threads: stage 1
 * joins stage 2, which waits for a condition that only stage 1 sets, after
 * the join.
 *
 * Fix: Stage 1 releases stage 2 (go = 1, signal) before joining it.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_t stage2_thread;
pthread_mutex_t m;
pthread_cond_t go_cv;
int go = 0;

void *stage2(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  while (!go)
    pthread_cond_wait(&go_cv, &m);
  pthread_mutex_unlock(&m);
  return 0;
}

void *stage1(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  go = 1;
  pthread_cond_signal(&go_cv);
  pthread_mutex_unlock(&m);
  pthread_join(stage2_thread, 0);
  return 0;
}

int main(void)
{
  pthread_t s1;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&go_cv, 0);
  pthread_create(&stage2_thread, 0, stage2, 0);
  pthread_create(&s1, 0, stage1, 0);
  pthread_join(s1, 0);
  return 0;
}
