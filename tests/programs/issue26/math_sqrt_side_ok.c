// seqloc-expect: no-failure
// The new area is stored before the measuring thread starts, so its square root is
// always 5 (IEEE's square root is exact here, as `sqrtf(0.25f)` is 0.5 and
// `fabs(-x)` is `x`).
#include <math.h>
#include <pthread.h>
#include <assert.h>

double area = 16.0, side;

void *measure(void *arg)
{
  (void)arg;
  side = sqrt(area);
  return 0;
}

int main(void)
{
  pthread_t t;
  float half = sqrtf(0.25f);
  area = 25.0;
  pthread_create(&t, 0, measure, 0);
  pthread_join(t, 0);
  assert(half == 0.5f);
  assert(fabs(-side) == 5.0);
  assert(sqrt(2.0) * sqrt(2.0) != 2.0);
  return 0;
}
