// seqloc-expect: no-failure
// IEEE semantics both engines (the explorer's f32/f64 and the bounded search's Z3
// floating-point terms) must share: -0.0 is false, NaN is unequal to itself, 0.1f is
// rounded once from the decimal, float arithmetic rounds to float, conversions to int
// truncate, a 32-bit unsigned value converts exactly to double. Natively, every
// assertion holds.
#include <assert.h>
#include <pthread.h>

float f = 0.1f;
double d;
int seen_negative_zero;

void *t(void *a) {
  d = -0.0;
  f = f * 3;
  return 0;
}

int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  if (d)
    seen_negative_zero = 1;
  assert(!seen_negative_zero);
  assert(f == 0.1f * 3);
  int i = (int)(f * 10.0f);
  assert(i == 3);
  assert((int)-2.75 == -2);
  unsigned u = 4000000000u;
  double du = u;
  assert(du == 4000000000.0);
  d = 0.0 / 0.0;
  assert(d != d);
  assert(0.1f != 0.1);
  return 0;
}
