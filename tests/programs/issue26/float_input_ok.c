// seqloc-expect: no-failure
// The twin of float_input_fail.c: main checks the level before it starts the worker.
#include <assert.h>
#include <pthread.h>

extern double __VERIFIER_nondet_double(void);
double level;

void *grow(void *arg) { level = level * 2.0; return 0; }

int main(void) {
  pthread_t t;
  level = __VERIFIER_nondet_double();
  __VERIFIER_assume(level > 1.0 && level < 2.0);
  assert(level < 2.0);
  pthread_create(&t, 0, grow, 0);
  pthread_join(t, 0);
  return 0;
}
