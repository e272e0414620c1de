/* Two workers apply refunds to one ledger under its lock; main starts them in a loop,
 * joins them and checks the total. The fault is a value, not an ordering: line 21
 * subtracts the refund it should add, so every interleaving fails. Faulty line: 21. */
#include <assert.h>
#include <pthread.h>

struct ledger {
  pthread_mutex_t lock;
  int total;
};

struct ledger book;
int refunds[2];

void *refund(void *arg)
{
  int *amount = (int *)arg;
  int t;
  pthread_mutex_lock(&book.lock);
  t = book.total;
  book.total = t - *amount;
  pthread_mutex_unlock(&book.lock);
  return 0;
}

int main(void)
{
  pthread_t w[2];
  int i;
  pthread_mutex_init(&book.lock, 0);
  book.total = 10;
  refunds[0] = 3;
  refunds[1] = 4;
  for (i = 0; i < 2; i++)
    pthread_create(&w[i], 0, refund, &refunds[i]);
  for (i = 0; i < 2; i++)
    pthread_join(w[i], 0);
  assert(book.total == 17);
  return 0;
}
