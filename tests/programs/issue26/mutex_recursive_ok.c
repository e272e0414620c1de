// seqloc-expect: no-failure
// A recursive mutex: `deposit` holds the account lock and calls `audit`, which takes the
// same lock again. Natively this runs and the assertion holds (a default mutex would
// deadlock here); every lock is matched by an unlock.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m;
int balance = 90, audits;
void audit(void) {
  pthread_mutex_lock(&m);
  audits++;
  pthread_mutex_unlock(&m);
}
void *deposit(void *arg) {
  pthread_mutex_lock(&m);
  balance += 10;
  audit();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, deposit, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == 110 && audits == 2);
  return 0;
}
