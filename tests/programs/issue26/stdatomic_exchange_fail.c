// seqloc-expect: failure 11
// Check-then-act on an atomic: the load and the store are each atomic, but both threads
// can load 0 before either stores 1, and both enter.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int claimed;
atomic_int inside;
void *worker(void *arg) {
  // The line to fix: `if (atomic_exchange(&claimed, 1) == 0)` claims in one step.
  if (atomic_load(&claimed) == 0) {
    atomic_store(&claimed, 1);
    atomic_fetch_add(&inside, 1);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&inside) == 1);
  return 0;
}
