// seqloc-expect: no-failure
// A thread that joins itself: Linux answers EDEADLK at once (POSIX allows it) instead of
// waiting for ever, stores nothing, and the thread goes on.
#include <pthread.h>
#include <errno.h>
#include <assert.h>
int done;
void *worker(void *arg) {
  void *res = &done;
  int r = pthread_join(pthread_self(), &res);
  assert(r == EDEADLK && res == &done);
  done = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(done == 1);
  return 0;
}
