// seqloc-expect: refused pthread_barrierattr_getpshared
// Barrier attributes are accepted as no-ops where they cannot change a run within one
// process (init, destroy, setpshared); reading one back is refused by name.
#include <pthread.h>
#include <assert.h>
pthread_barrier_t b;
void *worker(void *arg) {
  pthread_barrier_wait(&b);
  return 0;
}
int main(void) {
  pthread_barrierattr_t attr;
  int shared;
  pthread_barrierattr_init(&attr);
  pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_PRIVATE);
  pthread_barrierattr_getpshared(&attr, &shared);
  assert(shared == PTHREAD_PROCESS_PRIVATE);
  pthread_barrier_init(&b, &attr, 2);
  pthread_barrierattr_destroy(&attr);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_barrier_wait(&b);
  pthread_join(t, 0);
  return 0;
}
