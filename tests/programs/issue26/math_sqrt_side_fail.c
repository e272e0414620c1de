// seqloc-expect: failure 22
// The measuring thread takes the square root of `area` while `main` may still change it:
// the new area is stored after the thread starts, so the side can come from the old one.
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
  pthread_create(&t, 0, measure, 0);
  area = 25.0;
  pthread_join(t, 0);
  assert(half == 0.5f);
  assert(fabs(-side) == 5.0);
  return 0;
}
