// seqloc-expect: failure 16
// A spinlock from __sync_lock_test_and_set/__sync_lock_release, released too early: the
// write of the balance is outside the critical section, so a deposit can be lost.
#include <pthread.h>
#include <assert.h>
int lk;
int balance;
void *worker(void *arg) {
  while (__sync_lock_test_and_set(&lk, 1))
    ;
  int b = balance;
  __sync_lock_release(&lk);
  int nb = b + 10;
  // The line to fix: the balance is written after the lock is released; the write
  // belongs before the release.
  balance = nb;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == 20);
  return 0;
}
