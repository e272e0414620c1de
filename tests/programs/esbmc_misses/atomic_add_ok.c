/* Two depositors each add to the balance in one atomic function: nothing is lost. */
#include <pthread.h>
#include <assert.h>

int balance = 100;

void __VERIFIER_atomic_add_balance(int v)
{
  int b = balance;
  balance = b + v;
}

void *deposit(void *arg)
{
  __VERIFIER_atomic_add_balance(10);
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
