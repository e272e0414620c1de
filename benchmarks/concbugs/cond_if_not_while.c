/*
 * concbugs/cond_if_not_while.c -- atomicity violation around a condition
 * variable wait. Two consumers each take one item; a producer makes two
 * items, signalling after each.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (if where while is needed)
 * Faulty line: 44. A consumer tests "items == 0" with "if" and does not test
 *   again after waking up; another consumer can take the item between the
 *   signal and the wake-up. The test must be a "while" loop.
 *
 * Failing interleaving (4 context switches):
 *   main: L57,L58,L59 create consumers C1, C2 and producer P; L60 join(C1) blocks
 *   C1:   L43 lock, L44 items == 0, L45 waits                          [switch 1]
 *   P:    i=0: L33 items = 1, L34 signal (C1 woken), unlock            [switch 2]
 *   C2:   L43 lock, L44 items is 1, L46 items = 0, L47 holds, unlock; C2 ends
 *                                                                      [switch 3]
 *   C1:   reacquires the mutex, L46 items = -1, L47 fails              [switch 4]
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
  if (items == 0)
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
