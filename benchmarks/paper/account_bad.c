/*
 * paper/account_bad.c -- seqloc benchmark, Table III pattern "account_bad".
 * A bank account with deposit, withdraw and balance operations, all under
 * one mutex. A withdrawal is refused when the funds are insufficient.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: wrong assertion
 * Faulty line: 79. The final assertion assumes the withdrawal always
 *   succeeds (2 + 5 - 4). When the spender runs before the payer the
 *   withdrawal of 4 from a balance of 2 is refused and the balance ends at 7.
 *   The operations themselves are correctly synchronised.
 *
 * Failing interleaving (3 context switches):
 *   main:    L74 balance = 2; L75,L76 create payer P and spender S;
 *            L77 join(P) blocks
 *   S:       L38 balance 2 >= 4 is false, withdrawal refused; S ends   [switch 1]
 *   P:       L30 balance = 2 + 5 = 7; P ends                           [switch 2]
 *   main:    L77,L78 joins return; L79 assertion fails (7 != 3)        [switch 3]
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t acct_lock;
int balance;
int refused = 0;

void deposit(int amount)
{
  pthread_mutex_lock(&acct_lock);
  balance = balance + amount;
  pthread_mutex_unlock(&acct_lock);
}

int withdraw(int amount)
{
  int ok = 0;
  pthread_mutex_lock(&acct_lock);
  if (balance >= amount) {
    balance = balance - amount;
    ok = 1;
  }
  pthread_mutex_unlock(&acct_lock);
  return ok;
}

int current_balance(void)
{
  int b;
  pthread_mutex_lock(&acct_lock);
  b = balance;
  pthread_mutex_unlock(&acct_lock);
  return b;
}

void *payer(void *arg)
{
  (void)arg;
  deposit(5);
  return 0;
}

void *spender(void *arg)
{
  (void)arg;
  if (!withdraw(4))
    refused = 1;
  return 0;
}

int main(void)
{
  pthread_t p, s;
  pthread_mutex_init(&acct_lock, 0);
  balance = 2;
  pthread_create(&p, 0, payer, 0);
  pthread_create(&s, 0, spender, 0);
  pthread_join(p, 0);
  pthread_join(s, 0);
  assert(current_balance() == 2 + 5 - 4);
  return 0;
}
