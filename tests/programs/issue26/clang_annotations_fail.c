// seqloc-expect: failure 22
// A file preprocessed on macOS keeps clang's annotations: availability attributes on
// enumerators and declarations, nullability qualifiers. They are read past. The two
// workers add to `total` without a lock: an update is lost.
#include <pthread.h>
#include <assert.h>

typedef enum {
  STEP_ONE __attribute__((availability(macosx,introduced=10.12))) = 1,
  STEP_SIX __attribute__((availability(macosx,introduced=10.12))) = 6
} step_t;

int step_of(int * _Nullable p) __attribute__((availability(macos,introduced=10.13.4)));
int step_of(int * _Nullable p) { return p ? *p : STEP_SIX; }

int total;
int one = STEP_ONE;

void *worker(void *arg)
{
  int t = total;
  total = t + step_of((int * _Nonnull)arg);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, worker, &one);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == STEP_ONE + STEP_SIX);
  return 0;
}
