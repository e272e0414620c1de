// seqloc-expect: no-failure
// An attribute set joinable and read back: the thread is joinable, the join waits for it,
// and the result is there.
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
  int state = -1;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_JOINABLE);
  pthread_attr_getdetachstate(&attr, &state);
  assert(state == PTHREAD_CREATE_JOINABLE);
  pthread_create(&t, &attr, worker, 0);
  pthread_attr_destroy(&attr);
  int r = pthread_join(t, 0);
  assert(r == 0 && result == 42);
  return 0;
}
