/*
 * seeds/wallet_transfer_lock_order_ok.c -- fixed version of seeds/wallet_transfer_lock_order_bad.c (seqloc benchmark).
 *
 * lock-order inversion through the
 * thread argument. Two wallets, each with its own mutex, live on main's
 * stack; each transfer thread gets a struct naming its source and its
 * destination wallet and locks both before it moves the amount.
 *
 * Fix: do_transfer locks the wallet with the lower id first, whatever the direction.
 *
 * Expected verdict: true (no-deadlock)
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
  struct wallet *first = t->from, *second = t->to;
  if (second->id < first->id) {
    first = t->to;
    second = t->from;
  }
  pthread_mutex_lock(&first->lock);
  pthread_mutex_lock(&second->lock);
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
