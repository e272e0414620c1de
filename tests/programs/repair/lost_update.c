/* expect: repair */
/* faulty: 17 18
 * Two depositors each read the shared balance into a local and write back
 * the sum; if both read before either writes, one deposit is lost and main
 * sees 150 or 200 instead of 250. Good repair: a new mutex locked before the
 * read on line 17 and unlocked after the write on line 18 (both threads run
 * the same function), making read+write one atomic step. */
#include <pthread.h>
#include <assert.h>

int balance = 100;

void *deposit(void *arg)
{
  int amount = *(int *)arg;
  int seen;
  seen = balance;
  balance = seen + amount;
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  int a1 = 50;
  int a2 = 100;
  pthread_create(&t1, 0, deposit, &a1);
  pthread_create(&t2, 0, deposit, &a2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(balance == 250);
  return 0;
}
