/*
 * correct/account_ok.c -- fixed version of paper/account_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern "account_bad".
 * A bank account with deposit, withdraw and balance operations, all under
 * one mutex. A withdrawal is refused when the funds are insufficient.
 *
 * Fix: The final assertion accounts for a refused withdrawal.
 *
 * Expected verdict: true (unreach-call)
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
  assert(current_balance() == (refused ? 2 + 5 : 2 + 5 - 4));
  return 0;
}
