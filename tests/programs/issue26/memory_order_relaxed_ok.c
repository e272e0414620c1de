// seqloc-expect: no-failure
// seqloc-notice: memory order weaker than seq_cst
// Relaxed read-modify-writes are still indivisible: the count is exact under any order.
// seqloc checks every order as sequentially consistent and says so once on stderr.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int counter;
void *worker(void *arg) {
  atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  __atomic_fetch_add(&counter, 1, __ATOMIC_ACQ_REL);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load_explicit(&counter, memory_order_acquire) == 4);
  return 0;
}
