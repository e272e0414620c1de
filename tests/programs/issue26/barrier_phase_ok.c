// seqloc-expect: no-failure
// A two-phase computation: each worker writes its partial result, waits at the barrier
// until both have, then adds up both.
#include <pthread.h>
#include <assert.h>
pthread_barrier_t phase;
int partial[2];
int total[2];
void *worker(void *arg) {
  long id = (long)arg;
  partial[id] = (int)(id + 1) * 10;
  int other;
  pthread_barrier_wait(&phase);
  other = partial[1 - id];
  total[id] = partial[id] + other;
  assert(total[id] == 30);
  return 0;
}
int main(void) {
  pthread_barrier_init(&phase, 0, 2);
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_barrier_destroy(&phase);
  return 0;
}
