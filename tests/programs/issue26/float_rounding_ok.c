// seqloc-expect: no-failure
// The twin of float_rounding_fail.c: the worker compares with a tolerance, as floating
// point asks, and the sum 0.30000000000000004 is within it.
#include <assert.h>
#include <pthread.h>

double total;
int done;

void *worker(void *arg) {
  total = 0.1 + 0.2;
  assert(total > 0.3 - 1e-9 && total < 0.3 + 1e-9);
  done = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
