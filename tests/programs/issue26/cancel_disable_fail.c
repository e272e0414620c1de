// seqloc-expect: failure 8
// The worker disables cancellation only after its cancellation point: a request that
// arrives before it acts there, and the worker never records that it completed.
#include <pthread.h>
#include <assert.h>
int completed;
void *worker(void *arg) {
  sleep(1);
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
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
