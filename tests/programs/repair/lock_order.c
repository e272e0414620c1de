/* expect: repair */
/* faulty: 30 31
 * transfer_ab locks acct_a then acct_b, but transfer_ba locks acct_b then
 * acct_a (lines 30-31); if each thread takes its first mutex before the
 * other takes its second, both block forever (deadlock). Good repair: one
 * global order - in transfer_ba lock acct_a before acct_b (swap lines 30
 * and 31), keeping the unlocks as they are. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t acct_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t acct_b = PTHREAD_MUTEX_INITIALIZER;
int bal_a = 100;
int bal_b = 100;

void *transfer_ab(void *arg)
{
  pthread_mutex_lock(&acct_a);
  pthread_mutex_lock(&acct_b);
  bal_a = bal_a - 10;
  bal_b = bal_b + 10;
  pthread_mutex_unlock(&acct_b);
  pthread_mutex_unlock(&acct_a);
  return 0;
}

void *transfer_ba(void *arg)
{
  int amount = 20;
  pthread_mutex_lock(&acct_b);
  pthread_mutex_lock(&acct_a);
  bal_b = bal_b - amount;
  bal_a = bal_a + amount;
  pthread_mutex_unlock(&acct_a);
  pthread_mutex_unlock(&acct_b);
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  pthread_create(&t1, 0, transfer_ab, 0);
  pthread_create(&t2, 0, transfer_ba, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(bal_a + bal_b == 200);
  return 0;
}
