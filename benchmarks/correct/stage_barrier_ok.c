/*
 * correct/stage_barrier_ok.c -- fixed version of
 * primitives/stage_barrier_count.c: the barrier counts the two stage
 * threads.
 *
 * Expected verdict: true (no-deadlock)
 */#include <pthread.h>

pthread_barrier_t meet;
int result[2];
int swapped[2];

void *stage(void *arg)
{
  int id = *(int *)arg;
  int r = id * 10 + 1;
  result[id] = r;
  pthread_barrier_wait(&meet);
  swapped[id] = result[1 - id];
  return 0;
}

int main(void)
{
  pthread_t t0, t1;
  int id0 = 0, id1 = 1;
  pthread_barrier_init(&meet, 0, 2);
  pthread_create(&t0, 0, stage, &id0);
  pthread_create(&t1, 0, stage, &id1);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  pthread_barrier_destroy(&meet);
  return 0;
}
