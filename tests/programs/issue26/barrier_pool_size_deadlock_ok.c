// seqloc-expect: no-failure
// The barrier is sized for the two workers the program starts: each sees the other ready.
#include <pthread.h>
#include <assert.h>
#define POOL 2
pthread_barrier_t start;
int ready[2];
void *worker(void *arg) {
  long id = (long)arg;
  ready[id] = 1;
  pthread_barrier_wait(&start);
  assert(ready[1 - id] == 1);
  return 0;
}
int main(void) {
  pthread_barrier_init(&start, 0, POOL);
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
