/* root cause: lines 25 26 (both depositors read the balance before either writes it; each reads its amounts in a loop) */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int balance = 0;
int total = 0;

void *deposit(void *arg)
{
  int sum = 0;
  int i;
  int seen;
  (void)arg;
  /* Two amounts, read at one statement: its occurrences tell them apart. */
  for (i = 0; i < 2; i++) {
    int amount = __VERIFIER_nondet_int();
    __VERIFIER_assume(amount > 0 && amount < 100);
    sum = sum + amount;
  }
  /* The balance is read and written back without the lock. */
  seen = balance;
  balance = seen + sum;
  pthread_mutex_lock(&m);
  total = total + sum;
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
