/*
 * deadlock/lock_order_two.c -- lock-order inversion, two threads and two
 * mutexes. A seller updates stock and revenue; a restocker updates the same
 * two counters.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (lock-order inversion)
 * Faulty lines: 28, 29, 40, 41. The seller takes inventory_lock then
 *   ledger_lock (L28, L29), the restocker ledger_lock then inventory_lock
 *   (L40, L41). Swapping either pair gives one global order.
 *
 * Deadlocking interleaving (2 context switches):
 *   main: L54,L55 create seller S and restocker R; L56 join(S) blocks
 *   S:    L28 locks inventory_lock                                     [switch 1]
 *   R:    L40 locks ledger_lock, L41 blocks on inventory_lock          [switch 2]
 *   S's next step, L29, needs ledger_lock, held by R: main, S and R are all
 *   blocked, a deadlock.
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
  pthread_mutex_lock(&ledger_lock);
  pthread_mutex_lock(&inventory_lock);
  revenue = revenue - 2;
  stock = stock + 1;
  pthread_mutex_unlock(&inventory_lock);
  pthread_mutex_unlock(&ledger_lock);
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
