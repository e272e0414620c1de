// seqloc-expect: refused pthread_once
// The init routine is chosen at run time through a pointer: which function runs inside
// `pthread_once` is not known before the run, so the call is refused by name.
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int inits;
void setup(void) { inits++; }
void (*routine)(void) = setup;
void *worker(void *arg) {
  pthread_once(&once, routine);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(inits == 1);
  return 0;
}
