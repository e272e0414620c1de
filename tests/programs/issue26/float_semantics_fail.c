// seqloc-expect: failure 21
// The twin of float_semantics_ok.c with one IEEE fact taken the other way: the worker
// stores 0.0 / 0.0, a NaN, and a NaN is unequal to itself, so main's reflexive check
// fails (natively too). A checker that compared bit patterns would call it correct.
#include <assert.h>
#include <pthread.h>

double d;
int ready;

void *t(void *a) {
  d = 0.0 / 0.0;
  ready = 1;
  return 0;
}

int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  assert(d == d);
  return 0;
}
