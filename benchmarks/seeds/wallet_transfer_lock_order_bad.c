/*
 * seeds/wallet_transfer_lock_order_bad.c -- lock-order inversion through the
 * thread argument. Two wallets, each with its own mutex, live on main's
 * stack; each transfer thread gets a struct naming its source and its
 * destination wallet and locks both before it moves the amount.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (lock-order inversion)
 * Faulty lines: 38, 39. do_transfer locks the source wallet (L38), then the
 *   destination (L39); two transfers in opposite directions take the same two
 *   mutexes in opposite orders. The wallets must be locked in one global
 *   order (lower id first).
 *
 * Deadlocking interleaving (2 context switches):
 *   main: L69,L70 create T1 (alice -> bob) and T2 (bob -> alice); L71 join(T1) blocks
 *   T1:   L38 locks alice's mutex                            [switch 1]
 *   T2:   L38 locks bob's mutex, L39 blocks on alice's       [switch 2]
 *   T1's next step, L39, needs bob's mutex: main, T1 and T2 are all blocked.
 */
#include <pthread.h>

struct wallet {
  pthread_mutex_t lock;
  int id;
  int balance;
};

struct transfer {
  struct wallet *from;
  struct wallet *to;
  int amount;
  int done;
};

void *do_transfer(void *arg)
{
  struct transfer *t = arg;
  pthread_mutex_lock(&t->from->lock);
  pthread_mutex_lock(&t->to->lock);
  if (t->from->balance >= t->amount) {
    t->from->balance = t->from->balance - t->amount;
    t->to->balance = t->to->balance + t->amount;
    t->done = 1;
  }
  pthread_mutex_unlock(&t->to->lock);
  pthread_mutex_unlock(&t->from->lock);
  return 0;
}

int main(void)
{
  struct wallet alice, bob;
  struct transfer t1, t2;
  pthread_t th1, th2;
  pthread_mutex_init(&alice.lock, 0);
  pthread_mutex_init(&bob.lock, 0);
  alice.id = 1;
  alice.balance = 40;
  bob.id = 2;
  bob.balance = 25;
  t1.from = &alice;
  t1.to = &bob;
  t1.amount = 15;
  t1.done = 0;
  t2.from = &bob;
  t2.to = &alice;
  t2.amount = 10;
  t2.done = 0;
  pthread_create(&th1, 0, do_transfer, &t1);
  pthread_create(&th2, 0, do_transfer, &t2);
  pthread_join(th1, 0);
  pthread_join(th2, 0);
  return 0;
}
