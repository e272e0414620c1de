// seqloc-expect: refused pthread_barrier_init
// Barriers are not modelled yet (in no engine): refused by name, never approximated.
#include <pthread.h>
#include <assert.h>
pthread_barrier_t phase;
int stage[2];
void *worker(void *arg) {
  long id = (long)arg;
  stage[id] = 1;
  pthread_barrier_wait(&phase);
  assert(stage[1 - id] == 1);
  return 0;
}
int main(void) {
  pthread_barrier_init(&phase, 0, 2);
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
