/*
 * correct/transfer_ok.c -- fixed version of concbugs/transfer_two_locks.c (seqloc benchmark).
 *
 * multi-variable atomicity violation.
 * Two accounts, each with its own mutex. A mover transfers 30 from checking
 * to savings; an auditor takes both mutexes and checks the total.
 *
 * Fix: move() holds both account mutexes for the whole transfer, taken in the same order as the auditor (checking, then savings).
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

struct account {
  pthread_mutex_t lock;
  int balance;
};

struct account checking, savings;

void move(struct account *from, struct account *to, int amount)
{
  pthread_mutex_lock(&from->lock);
  pthread_mutex_lock(&to->lock);
  from->balance = from->balance - amount;
  to->balance = to->balance + amount;
  pthread_mutex_unlock(&to->lock);
  pthread_mutex_unlock(&from->lock);
}

void *mover(void *arg)
{
  (void)arg;
  move(&checking, &savings, 30);
  return 0;
}

void *auditor(void *arg)
{
  int total;
  (void)arg;
  pthread_mutex_lock(&checking.lock);
  pthread_mutex_lock(&savings.lock);
  total = checking.balance + savings.balance;
  pthread_mutex_unlock(&savings.lock);
  pthread_mutex_unlock(&checking.lock);
  assert(total == 100);
  return 0;
}

int main(void)
{
  pthread_t m, a;
  pthread_mutex_init(&checking.lock, 0);
  pthread_mutex_init(&savings.lock, 0);
  checking.balance = 100;
  savings.balance = 0;
  pthread_create(&m, 0, mover, 0);
  pthread_create(&a, 0, auditor, 0);
  pthread_join(m, 0);
  pthread_join(a, 0);
  return 0;
}
