/* root cause: lines 12 15 (both tellers read the balance before either writes it back) */
#include <pthread.h>
#include <assert.h>

int balance = 100;

void *teller(void *arg)
{
  int amount = *(int *)arg;
  int seen;
  /* Read, compute, write back. */
  seen = balance;
  seen = seen + amount;
  /* Another teller's update between the read and this write is lost. */
  balance = seen;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int x = 50, y = 70;
  pthread_create(&a, 0, teller, &x);
  pthread_create(&b, 0, teller, &y);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == 220);
  return 0;
}
