// seqloc-expect: no-failure
// Written for CBMC: nondet_uint() and nondet_bool() never defined, __CPROVER_assume,
// __CPROVER_atomic_begin/end and __CPROVER_assert(cond, "message"). The producer
// fills the slot and marks it full in one atomic section.
#include <pthread.h>
unsigned nondet_uint();
_Bool nondet_bool();
unsigned item;
_Bool full;
void *producer(void *arg) {
  unsigned v = nondet_uint();
  __CPROVER_assume(v > 0 && v < 1000);
  __CPROVER_atomic_begin();
  item = v;
  full = 1;
  __CPROVER_atomic_end();
  return 0;
}
int main() {
  pthread_t p;
  pthread_create(&p, 0, producer, 0);
  if (nondet_bool()) {
    __CPROVER_atomic_begin();
    _Bool f = full;
    unsigned got = item;
    __CPROVER_atomic_end();
    if (f)
      __CPROVER_assert(got > 0, "a full slot holds an item");
  }
  pthread_join(p, 0);
  return 0;
}
