// seqloc-expect: no-failure
// The answers of detaching and joining a detached thread: the first detach succeeds, a
// second answers EINVAL, and a join answers EINVAL at once without waiting (glibc; the
// worker is still blocked on the mutex main holds, so its thread id stays valid).
#include <pthread.h>
#include <errno.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int result;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  result = 42;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, worker, 0);
  int d = pthread_detach(t);
  int again = pthread_detach(t);
  int r = pthread_join(t, 0);
  assert(d == 0 && again == EINVAL && r == EINVAL && result == 0);
  pthread_mutex_unlock(&m);
  return 0;
}
