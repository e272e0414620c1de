/*
 * Each teller counts its visit, then reads the balance and writes it back:
 * the lost update is on the balance. The visit count races too, but nothing
 * checks it, so the order of the two tellers' visit counts is no cause.
 *
 * Expected verdict: false (unreach-call)
 * Faulty lines: 20, 21 (the read and the write-back belong in one critical section)
 */
#include <pthread.h>
#include <assert.h>

int visits;
int balance;

void *teller(void *arg)
{
  int seen;
  (void)arg;
  visits = visits + 1;
  seen = balance;
  balance = seen + 10;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, teller, 0);
  pthread_create(&b, 0, teller, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == 20);
  return 0;
}
