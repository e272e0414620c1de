// seqloc-expect: no-failure
// A spinlock from atomic_compare_exchange_weak (which may fail spuriously: it is retried)
// and atomic_store, around a plain read-modify-write; on failure the CAS writes the
// current value into `expected`, so it is reset before each retry.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int lock;
int balance;
void *deposit(void *arg) {
  int expected = 0;
  while (!atomic_compare_exchange_weak(&lock, &expected, 1))
    expected = 0;
  int b = balance;
  balance = b + 10;
  atomic_store(&lock, 0);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, deposit, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == 20);
  return 0;
}
