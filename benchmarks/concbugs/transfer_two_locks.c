/*
 * concbugs/transfer_two_locks.c -- multi-variable atomicity violation.
 * Two accounts, each with its own mutex. A mover transfers 30 from checking
 * to savings; an auditor takes both mutexes and checks the total.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (multi-variable, different locks)
 * Faulty lines: 32, 33. move() debits under the source's mutex, releases it
 *   (L32) and only then takes the destination's mutex (L33) to credit, so the
 *   money is in neither account in between. Both mutexes must be held for
 *   the whole transfer (taken in a fixed order).
 *
 * Failing interleaving (2 context switches):
 *   main: L65,L66 create mover M and auditor A; L67 join(M) blocks
 *   M:    L30 lock checking, L31 checking = 70, L32 unlock             [switch 1]
 *   A:    locks both, L51 total = 70 + 0, unlocks; L54 fails (70 != 100) [switch 2]
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
  from->balance = from->balance - amount;
  pthread_mutex_unlock(&from->lock);
  pthread_mutex_lock(&to->lock);
  to->balance = to->balance + amount;
  pthread_mutex_unlock(&to->lock);
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
