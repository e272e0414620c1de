/* root cause: lines 19 21 (both depositors read the balance before either writes it; the amounts are inputs) */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int balance = 0;
int total = 0;

void *deposit(void *arg)
{
  int amount = __VERIFIER_nondet_int();
  int seen;
  (void)arg;
  __VERIFIER_assume(amount > 0 && amount < 100);
  /* The balance is read, added to and written back without the lock. */
  seen = balance;
  seen = seen + amount;
  balance = seen;
  pthread_mutex_lock(&m);
  total = total + amount;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, deposit, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == total);
  return 0;
}
