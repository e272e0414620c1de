/*
 * deadlock/join_cycle_threads.c -- join cycle between two threads: stage 1
 * joins stage 2, which waits for a condition that only stage 1 sets, after
 * the join.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (join cycle)
 * Faulty lines: 38, 40, 41. Stage 1 joins stage 2 (38) before releasing it
 *   (L40 go = 1, L41 signal); the join must come after the release.
 *
 * Deadlocking interleaving (2 context switches):
 *   main: L51,L52 create stage 2 (handle in stage2_thread) and stage 1;
 *         L53 join(stage 1) blocks
 *   S1:   L38 join(stage 2) blocks                                     [switch 1]
 *   S2:   lock, L30 go is 0, waits                                     [switch 2]
 *   main waits for S1, S1 for S2, S2 for a signal from S1: deadlock.
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
  pthread_join(stage2_thread, 0);
  pthread_mutex_lock(&m);
  go = 1;
  pthread_cond_signal(&go_cv);
  pthread_mutex_unlock(&m);
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
