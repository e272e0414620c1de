/*
 * primitives/stage_barrier_count.c -- a barrier set up for more threads than
 * ever reach it. Two stages run in two threads and meet at a barrier before
 * they swap results; the barrier is initialised for three threads, so both
 * wait at it for ever and main blocks joining them.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: wrong-count (a barrier's thread count)
 * Faulty line: 37. pthread_barrier_init must count the 2 stage threads.
 *
 * Deadlocking interleaving (2 context switches):
 *   main:    L37 sets up the barrier, L38-L39 create both stages, L40 blocks
 *   stage 0: L25-L27 computes, L28 waits at the barrier         [switch 1]
 *   stage 1: L25-L27 computes, L28 waits at the barrier         [switch 2]
 *   Two of three have arrived: nobody can go on.
 */
#include <pthread.h>

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
  pthread_barrier_init(&meet, 0, 3);
  pthread_create(&t0, 0, stage, &id0);
  pthread_create(&t1, 0, stage, &id1);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  pthread_barrier_destroy(&meet);
  return 0;
}
