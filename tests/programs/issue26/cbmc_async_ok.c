// seqloc-expect: no-failure
// Written for CBMC, without <pthread.h>: `__CPROVER_ASYNC_1:` runs the labelled call in a
// new thread, handed a copy of `step` (a local main never changes after). The worker's
// read and write of the total are one atomic section, so main's increment is kept.
unsigned nondet_uint();
unsigned total;
_Bool done;
void add(unsigned step) {
  __CPROVER_atomic_begin();
  unsigned t = total;
  total = t + step;
  __CPROVER_atomic_end();
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
