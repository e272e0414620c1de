// seqloc-expect: failure 37
// seqloc-args: --unwind 4 --assume-loop-bounds
// The twin of handoff_workers_ok.c in which `main` peeks at the first worker's counter
// before joining it: the read races with the worker's doubling, so it may see the
// counter before the worker is done.
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
  unsigned early;
  x1 = __VERIFIER_nondet_uint();
  n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(x1 > 0);
  x2 = x1;
  pthread_create(&t1, 0, double1, 0);
  pthread_create(&t2, 0, double2, 0);
  early = x1;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(early == x2);
  return 0;
}
