// seqloc-expect: failure 12
// Written for CBMC, without <pthread.h>: `__CPROVER_ASYNC_1:` runs the labelled call in a
// new thread, handed a copy of `step` (a local main never changes after). The worker
// reads the total in one atomic section and writes it back outside it, so main's own
// increment between the two is lost.
unsigned nondet_uint();
unsigned total;
_Bool done;
void add(unsigned step) {
  __CPROVER_atomic_begin();
  unsigned t = total;
  __CPROVER_atomic_end();
  total = t + step;
  done = 1;
}
int main() {
  unsigned step = nondet_uint();
  __CPROVER_assume(step > 0 && step < 100);
  __CPROVER_ASYNC_1: add(step);
  __CPROVER_atomic_begin();
  total = total + 1;
  __CPROVER_atomic_end();
  __CPROVER_assume(done);
  __CPROVER_assert(total == step + 1, "both additions are kept");
  return 0;
}
