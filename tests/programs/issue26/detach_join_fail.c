// seqloc-expect: failure 15
// main detaches the worker and still joins it to wait for its result: joining a detached
// thread answers EINVAL at once (glibc; POSIX leaves it undefined) instead of waiting, so
// main may read `result` before the worker has written it.
#include <pthread.h>
#include <assert.h>
int result;
void *worker(void *arg) {
  result = 42;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_detach(t); /* the fault: nobody can wait for a detached thread */
  pthread_join(t, 0);
  assert(result == 42);
  return 0;
}
