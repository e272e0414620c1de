// seqloc-expect: no-failure
// The twin of float_account_fail.c with the update under the lock: 1000 + 0.5 + 0.25
// and 1000 + 0.25 + 0.5 are both exactly 1000.75 in binary64, whichever teller goes first.
#include <assert.h>
#include <pthread.h>

double balance = 1000.0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *teller(void *arg) {
  double amount = *(double *)arg;
  pthread_mutex_lock(&lock);
  double b = balance;
  b = b + amount;
  balance = b;
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  double a1 = 0.5, a2 = 0.25;
  pthread_create(&t1, 0, teller, &a1);
  pthread_create(&t2, 0, teller, &a2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(balance == 1000.75);
  return 0;
}
