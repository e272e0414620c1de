// seqloc-expect: no-failure
// seqloc-args: --unwind 4 --assume-loop-bounds
// Two workers each double their own counter until it reaches a bound; `main` sets the
// counters before starting them and compares them only after joining both. Every access
// of `x1` and `x2` is ordered by a creation or a join, so no interleaving matters
// (seqloc's hand-off analysis: they are no switch points). With any bound and start, the
// loops are searched to 4 iterations (`--assume-loop-bounds`); as shared variables that
// search was still running at 150 s (UNKNOWN); handed off it takes a second.
#include <pthread.h>
#include <assert.h>

extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

unsigned x1, x2, n;

void *double1(void *arg) {
  (void)arg;
  while (x1 < n)
    x1 = x1 + x1;
  return 0;
}

void *double2(void *arg) {
  (void)arg;
  while (x2 < n)
    x2 = x2 + x2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  x1 = __VERIFIER_nondet_uint();
  n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(x1 > 0);
  x2 = x1;
  pthread_create(&t1, 0, double1, 0);
  pthread_create(&t2, 0, double2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x1 == x2);
  return 0;
}
