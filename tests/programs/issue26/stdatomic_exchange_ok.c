// seqloc-expect: no-failure
// atomic_exchange claims the flag and tells who had it in one indivisible step: exactly
// one thread enters.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int claimed;
atomic_int inside;
void *worker(void *arg) {
  if (atomic_exchange(&claimed, 1) == 0) {
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
