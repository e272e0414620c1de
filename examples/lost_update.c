/* A lost update: two tellers deposit into one account without a lock.
 * Each deposit reads the balance, then writes it back plus the amount; if the
 * other teller runs in between, one deposit is lost and the audit fails.
 *
 *   seqloc localize examples/lost_update.c
 */
#include <pthread.h>
#include <assert.h>

int balance = 100;

void *teller(void *arg)
{
  int amount = *(int *)arg;
  int seen = balance;
  balance = seen + amount;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int ten = 10, twenty = 20;
  pthread_create(&a, 0, teller, &ten);
  pthread_create(&b, 0, teller, &twenty);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == 130);
  return 0;
}
