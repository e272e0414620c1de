/*
 * correct/cond_while_ok.c -- fixed version of concbugs/cond_if_not_while.c (seqloc benchmark).
 *
 * atomicity violation around a condition
 * variable wait. Two consumers each take one item; a producer makes two
 * items, signalling after each.
 *
 * Fix: A consumer re-tests "items == 0" in a while loop after every wake-up.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
pthread_cond_t nonempty;
int items = 0;

void *producer(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    items = items + 1;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  while (items == 0)
    pthread_cond_wait(&nonempty, &m);
  items = items - 1;
  assert(items >= 0);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t c1, c2, p;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&nonempty, 0);
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&c2, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(c1, 0);
  pthread_join(c2, 0);
  pthread_join(p, 0);
  return 0;
}
