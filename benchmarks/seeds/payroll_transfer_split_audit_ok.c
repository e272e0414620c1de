/*
 * seeds/payroll_transfer_split_audit_ok.c -- fixed version of seeds/payroll_transfer_split_audit_bad.c (seqloc benchmark).
 *
 * atomicity violation over two
 * accounts. A bank of three accounts, each with its own mutex, holds 300 in
 * all. A payroll thread pays two employees from the company account, a
 * customer moves money between the employees' accounts; transfers always
 * go from a lower to a higher account id. An auditor locks every account
 * (in id order) and checks the total.
 *
 * Fix: transfer holds the source's mutex until the credit is made (destination locked inside it, in the auditor's id order).
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

#define ACCOUNTS 3
#define TOTAL 300

struct account {
  pthread_mutex_t lock;
  int balance;
};

struct payment {
  int from;
  int to[2];
  int amount;
};

struct account bank[ACCOUNTS];

/* Moves amount from one account to another with a higher id. */
static int transfer(struct account *from, struct account *to, int amount)
{
  pthread_mutex_lock(&from->lock);
  if (from->balance < amount) {
    pthread_mutex_unlock(&from->lock);
    return 0;
  }
  from->balance = from->balance - amount;
  pthread_mutex_lock(&to->lock);
  to->balance = to->balance + amount;
  pthread_mutex_unlock(&to->lock);
  pthread_mutex_unlock(&from->lock);
  return 1;
}

void *payer(void *arg)
{
  struct payment *p = arg;
  int j;
  for (j = 0; j < 2; j++)
    transfer(&bank[p->from], &bank[p->to[j]], p->amount);
  return 0;
}

void *auditor(void *arg)
{
  int i, total = 0;
  (void)arg;
  for (i = 0; i < ACCOUNTS; i++)
    pthread_mutex_lock(&bank[i].lock);
  for (i = 0; i < ACCOUNTS; i++)
    total = total + bank[i].balance;
  for (i = 0; i < ACCOUNTS; i++)
    pthread_mutex_unlock(&bank[i].lock);
  assert(total == TOTAL);
  return 0;
}

int main(void)
{
  pthread_t p, u, a;
  struct payment payroll, move;
  int i;
  for (i = 0; i < ACCOUNTS; i++)
    pthread_mutex_init(&bank[i].lock, 0);
  bank[0].balance = 200;
  bank[1].balance = 60;
  bank[2].balance = 40;
  payroll.from = 0;
  payroll.to[0] = 1;
  payroll.to[1] = 2;
  payroll.amount = 40;
  move.from = 1;
  move.to[0] = 2;
  move.to[1] = 2;
  move.amount = 10;
  pthread_create(&p, 0, payer, &payroll);
  pthread_create(&u, 0, payer, &move);
  pthread_create(&a, 0, auditor, 0);
  pthread_join(p, 0);
  pthread_join(u, 0);
  pthread_join(a, 0);
  return 0;
}
