// seqloc-expect: failure 15
// `double` is IEEE 754 binary64, each operation rounded to nearest (gcc on x86-64).
// Two tellers deposit into one balance: each reads it, computes and writes it back
// without the lock the lines above take, so one teller's update can be lost.
#include <assert.h>
#include <pthread.h>

double balance = 1000.0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *teller(void *arg) {
  double amount = *(double *)arg;
  double b = balance;
  b = b + amount;
  balance = b;
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
