// seqloc-expect: no-failure
// A configuration set up through `pthread_once`; the reader calls `pthread_once` too, so
// it either runs the routine itself or waits until the other caller's run completed.
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int config[2];
void setup(void) {
  config[0] = 1;
  config[1] = 2;
}
void *user(void *arg) { pthread_once(&once, setup); return 0; }
void *reader(void *arg) {
  pthread_once(&once, setup);
  assert(config[0] == 1 && config[1] == 2);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, user, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
