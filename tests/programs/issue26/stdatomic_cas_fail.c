// seqloc-expect: failure 12
// A spinlock from atomic_compare_exchange_strong without resetting `expected`: a failed
// CAS writes the current value (1, the lock held) into `expected`, so the retry "succeeds"
// in replacing 1 by 1 while the other thread is inside, and a deposit is lost.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int lock;
int balance;
void *deposit(void *arg) {
  int expected = 0;
  while (!atomic_compare_exchange_strong(&lock, &expected, 1))
    ;
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
