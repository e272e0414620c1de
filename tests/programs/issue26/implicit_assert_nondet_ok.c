// seqloc-expect: no-failure
// No <assert.h>: `assert` is implicitly declared, as ESBMC and CBMC accept. Inputs of
// several types from nondet_* functions that are declared and never defined, and the
// SV-COMP family (__VERIFIER_nondet_ushort, __VERIFIER_atomic_begin/end).
#include <pthread.h>
char nondet_char(void);
short nondet_short(void);
unsigned short __VERIFIER_nondet_ushort(void);
int level;
void *raise_level(void *arg) {
  unsigned short step = __VERIFIER_nondet_ushort();
  if (step > 3)
    step = 3;
  __VERIFIER_atomic_begin();
  int next = level + step + 1;
  level = next;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  char c = nondet_char();
  short s = nondet_short();
  if (c < 0 || s < 0)
    return 0;
  pthread_t a, b;
  pthread_create(&a, 0, raise_level, 0);
  pthread_create(&b, 0, raise_level, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(level == 0 || level >= 2);
  return 0;
}
