/*
 * correct/lock_order_ok.c -- fixed version of deadlock/lock_order_two.c (seqloc benchmark).
 *
 * lock-order inversion, two threads and two
 * mutexes. A seller updates stock and revenue; a restocker updates the same
 * two counters.
 *
 * Fix: Both threads take inventory_lock before ledger_lock.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_mutex_t inventory_lock, ledger_lock;
int stock = 10;
int revenue = 0;

void *seller(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&inventory_lock);
  pthread_mutex_lock(&ledger_lock);
  stock = stock - 1;
  revenue = revenue + 3;
  pthread_mutex_unlock(&ledger_lock);
  pthread_mutex_unlock(&inventory_lock);
  return 0;
}

void *restocker(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&inventory_lock);
  pthread_mutex_lock(&ledger_lock);
  revenue = revenue - 2;
  stock = stock + 1;
  pthread_mutex_unlock(&ledger_lock);
  pthread_mutex_unlock(&inventory_lock);
  return 0;
}

int main(void)
{
  pthread_t s, r;
  pthread_mutex_init(&inventory_lock, 0);
  pthread_mutex_init(&ledger_lock, 0);
  pthread_create(&s, 0, seller, 0);
  pthread_create(&r, 0, restocker, 0);
  pthread_join(s, 0);
  pthread_join(r, 0);
  return 0;
}
