// seqloc-expect: no-failure
// Two workers meet at a barrier initialized for two: each sees the other's load done.
#include <pthread.h>
#include <assert.h>
pthread_barrier_t ready;
int loaded[2];
void *worker(void *arg) {
  long id = (long)arg;
  loaded[id] = 1;
  pthread_barrier_wait(&ready);
  assert(loaded[1 - id] == 1);
  return 0;
}
int main(void) {
  pthread_barrier_init(&ready, 0, 2);
  pthread_t t[2];
  pthread_create(&t[0], 0, worker, (void *)0L);
  pthread_create(&t[1], 0, worker, (void *)1L);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
