// seqloc-expect: failure 10
// C11's atomic_* functions called without <stdatomic.h> (implicitly declared, as ESBMC and
// CBMC accept): a load and a store are two steps, and an increment can be lost.
#include <pthread.h>
#include <assert.h>
_Atomic int counter;
void *worker(void *arg) {
  int seen = atomic_load(&counter);
  // The line to fix: atomic_fetch_add(&counter, 1) in one step.
  atomic_store(&counter, seen + 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&counter) == 2);
  return 0;
}
