// seqloc-expect: failure 12
// seqloc-notice: memory order weaker than seq_cst
// A bug under any memory order (checked as sequentially consistent, with a notice): a
// relaxed load and a relaxed store instead of one fetch_add lose an increment.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int counter;
void *worker(void *arg) {
  int seen = atomic_load_explicit(&counter, memory_order_relaxed);
  // The line to fix: atomic_fetch_add_explicit(&counter, 1, ...) in one step.
  atomic_store_explicit(&counter, seen + 1, memory_order_relaxed);
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
