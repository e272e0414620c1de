// seqloc-expect: no-failure
// main cancels the worker, which acts on the request at pthread_testcancel while it holds
// the mutex; its cleanup handler releases the mutex, so main's lock after the join
// succeeds, and the join reports PTHREAD_CANCELED or the worker's own result.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int progress;
void release(void *a) { pthread_mutex_unlock(a); }
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_cleanup_push(release, &m);
  progress = 1;
  pthread_testcancel();
  pthread_cleanup_pop(1);
  return 0;
}
int main(void) {
  pthread_t t;
  void *res;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, &res);
  assert(res == PTHREAD_CANCELED || res == 0);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
