/* Two smoothing workers: each writes its own cell in phase one, then in phase two
 * averages its cell with its neighbour's. The phase-two read of the neighbour sits
 * above the barrier that is meant to separate the phases. */
#include <pthread.h>
#include <assert.h>

int cell[2] = {0, 0};
int smoothed[2];
pthread_barrier_t phase;

void *smoother(void *arg)
{
  int me = *(int *)arg;
  int other = 1 - me;
  cell[me] = 10 * (me + 1);
  int near = cell[other];
  pthread_barrier_wait(&phase);
  smoothed[me] = (cell[me] + near) / 2;
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int ids[2] = {0, 1};
  pthread_barrier_init(&phase, 0, 2);
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, smoother, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(smoothed[0] == 15 && smoothed[1] == 15);
  return 0;
}
