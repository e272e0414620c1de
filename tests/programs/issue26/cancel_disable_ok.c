// seqloc-expect: no-failure
// The worker disables cancellation before its cancellation point (sleep is one): a
// pending request waits, and the worker always completes; the old state was enabled.
#include <pthread.h>
#include <assert.h>
int completed;
void *worker(void *arg) {
  int old = 7;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
  assert(old == PTHREAD_CANCEL_ENABLE);
  sleep(1);
  completed = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, 0);
  assert(completed == 1);
  return 0;
}
