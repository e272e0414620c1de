// seqloc-expect: failure 11
// A nondeterministic double input: `level` is any value in (1, 2), and the worker may
// double it before main checks it is still below 2. The counterexample records the
// input by its IEEE bit pattern (and its C text), and the replay reads it back exactly.
#include <assert.h>
#include <pthread.h>

extern double __VERIFIER_nondet_double(void);
double level;

void *grow(void *arg) { level = level * 2.0; return 0; }

int main(void) {
  pthread_t t;
  level = __VERIFIER_nondet_double();
  __VERIFIER_assume(level > 1.0 && level < 2.0);
  pthread_create(&t, 0, grow, 0);
  assert(level < 2.0);
  pthread_join(t, 0);
  return 0;
}
