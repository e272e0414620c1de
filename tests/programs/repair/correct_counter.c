/* expect: no-failure */
/* faulty:
 * Two depositors each read the shared balance into a local and write back
 * the sum, but the read and the write are inside one critical section of
 * mutex m, so no deposit can be lost and main always sees 250. No repair is
 * needed; the program is correct in every interleaving. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int balance = 100;

void *deposit(void *arg)
{
  int amount = *(int *)arg;
  int seen;
  pthread_mutex_lock(&m);
  seen = balance;
  balance = seen + amount;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  int a1 = 50;
  int a2 = 100;
  pthread_create(&t1, 0, deposit, &a1);
  pthread_create(&t2, 0, deposit, &a2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(balance == 250);
  return 0;
}
