// seqloc-expect: deadlock 18
// A recursive mutex: `deposit` holds the account lock and calls `audit`, which takes it
// again. A deposit that crosses the limit returns early without its unlock: the mutex
// stays held once, and the next depositor waits for ever.
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
  if (balance > 95)
    return 0;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &attr);
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, deposit, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
