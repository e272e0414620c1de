/*
 * Two tellers deposit into one account they reach through the pointer main
 * hands them. Each reads the balance and writes it back in two steps, with no
 * lock: a preemption between the two loses a deposit.
 *
 * Expected verdict: false (unreach-call)
 * Faulty lines: 23, 24 (the read and the write-back belong in one critical section)
 */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct account {
  int balance;
  int deposits;
};

void *teller(void *arg)
{
  struct account *acc = arg;
  int seen;
  acc->deposits = acc->deposits + 1;
  seen = acc->balance;
  acc->balance = seen + 10;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  struct account *acc = malloc(sizeof *acc);
  if (acc == 0)
    return 0;
  acc->balance = 0;
  acc->deposits = 0;
  pthread_create(&a, 0, teller, acc);
  pthread_create(&b, 0, teller, acc);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(acc->balance == 20);
  free(acc);
  return 0;
}
