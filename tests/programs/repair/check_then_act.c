/* expect: repair */
/* faulty: 18 19
 * Two buyers test `stock > 0` before taking the mutex that protects the
 * update; with one item left both can pass the test, then both decrement
 * under the lock and stock goes to -1 (sold == 2 > initial 1). Good repair:
 * widen the existing critical section - lock m before the test on line 18
 * and unlock after the if (in both paths), so test and act are atomic. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int stock = 1;
int sold = 0;

void *buyer(void *arg)
{
  int want = 1;
  if (stock > 0) {
    pthread_mutex_lock(&m);
    stock = stock - want;
    sold = sold + want;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void)
{
  pthread_t b1, b2;
  pthread_create(&b1, 0, buyer, 0);
  pthread_create(&b2, 0, buyer, 0);
  pthread_join(b1, 0);
  pthread_join(b2, 0);
  assert(stock >= 0);
  assert(sold <= 1);
  return 0;
}
