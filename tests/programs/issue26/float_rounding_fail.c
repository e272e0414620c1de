// seqloc-expect: failure 13
// Floating-point rounding, not the schedule, is the fault: 0.1 + 0.2 is not 0.3 in
// binary64 (it is 0.30000000000000004), so the worker's exact comparison fails in every
// interleaving. A checker that took doubles for reals would call this program correct.
#include <assert.h>
#include <pthread.h>

double total;
int done;

void *worker(void *arg) {
  total = 0.1 + 0.2;
  assert(total == 0.3);
  done = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
