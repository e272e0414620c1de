/* Two depositors each read the balance with one atomic function and write it back with
 * another: a deposit between the two calls is lost. Faulty lines: 21, 22 (the read and
 * the write must be one atomic update). */
#include <pthread.h>
#include <assert.h>

int balance = 100;

int __VERIFIER_atomic_read_balance(void)
{
  return balance;
}

void __VERIFIER_atomic_write_balance(int v)
{
  balance = v;
}

void *deposit(void *arg)
{
  int b = __VERIFIER_atomic_read_balance();
  __VERIFIER_atomic_write_balance(b + 10);
  return arg;
}

int main(void)
{
  pthread_t t1, t2;
  pthread_create(&t1, 0, deposit, 0);
  pthread_create(&t2, 0, deposit, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(balance == 120);
  return 0;
}
