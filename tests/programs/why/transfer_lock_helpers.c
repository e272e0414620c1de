/* Two transfers between two accounts, each taking the accounts' locks through a
 * helper in its own order (from, then to): opposite transfers deadlock. The lines
 * that decide the order are the helper calls in `mover`, not the lock inside
 * `lock_account`, which every take goes through. */
#include <pthread.h>
#include <assert.h>

struct account { pthread_mutex_t mu; int balance; };
struct account acc[2];

void lock_account(struct account *a) { pthread_mutex_lock(&a->mu); }
void unlock_account(struct account *a) { pthread_mutex_unlock(&a->mu); }

struct transfer { int from, to, amount; };

void *mover(void *arg)
{
  struct transfer *t = arg;
  lock_account(&acc[t->from]);
  lock_account(&acc[t->to]);
  acc[t->from].balance -= t->amount;
  acc[t->to].balance += t->amount;
  unlock_account(&acc[t->to]);
  unlock_account(&acc[t->from]);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  struct transfer x = {0, 1, 5}, y = {1, 0, 3};
  pthread_mutex_init(&acc[0].mu, 0);
  pthread_mutex_init(&acc[1].mu, 0);
  acc[0].balance = 10;
  acc[1].balance = 10;
  pthread_create(&a, 0, mover, &x);
  pthread_create(&b, 0, mover, &y);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(acc[0].balance + acc[1].balance == 20);
  return 0;
}
