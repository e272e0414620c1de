// seqloc-expect: failure 17
// The worker is created detached through its attribute, and main still joins it to wait
// for its result: the join answers EINVAL at once, so main may read `result` first.
#include <pthread.h>
#include <assert.h>
int result;
void *worker(void *arg) {
  result = 42;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);
  /* the fault: a thread main joins must be created joinable */
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &attr, worker, 0);
  pthread_attr_destroy(&attr);
  pthread_join(t, 0);
  assert(result == 42);
  return 0;
}
