// seqloc-expect: failure 15
// A configuration set up through `pthread_once`; the reader checks a field instead of
// calling `pthread_once` itself, so it can run between the routine's two writes: the
// routine's statements interleave with a thread that does not call `pthread_once`.
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
  if (config[0] == 1)
    assert(config[1] == 2);
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
