// seqloc-expect: failure 10
// The worker detaches itself, as fire-and-forget threads do, while main joins it to wait
// for its result: a join that comes after the detach answers EINVAL at once, and main
// reads `result` before the worker has written it.
#include <pthread.h>
#include <assert.h>
int result;
void *worker(void *arg) {
  /* the fault: a thread main joins must stay joinable */
  pthread_detach(pthread_self());
  result = 42;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(result == 42);
  return 0;
}
