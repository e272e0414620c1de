/* A teller thread and a clerk thread post deposits under the vault's lock; main joins
 * them and checks the balance through a helper that copies it under the lock. The fault
 * is a value every interleaving shows: line 16 subtracts the deposit. The helper's copy
 * (line 24) and its return only carry the wrong balance to the check. Faulty line: 16. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t vault = PTHREAD_MUTEX_INITIALIZER;
int balance = 50;

void post(int amount)
{
  int b;
  pthread_mutex_lock(&vault);
  b = balance;
  balance = b - amount;
  pthread_mutex_unlock(&vault);
}

int read_balance(void)
{
  int b;
  pthread_mutex_lock(&vault);
  b = balance;
  pthread_mutex_unlock(&vault);
  return b;
}

void *teller(void *arg)
{
  (void)arg;
  post(20);
  return 0;
}

void *clerk(void *arg)
{
  (void)arg;
  post(5);
  return 0;
}

int main(void)
{
  pthread_t t, c;
  pthread_create(&t, 0, teller, 0);
  pthread_create(&c, 0, clerk, 0);
  pthread_join(t, 0);
  pthread_join(c, 0);
  assert(read_balance() == 75);
  return 0;
}
