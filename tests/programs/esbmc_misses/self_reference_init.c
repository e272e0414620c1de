/*
 * Initializers that name the variable they initialize, as C allows: the
 * `T *p = malloc(sizeof *p)` idiom and a local handed to its own initializer
 * call. The printed program must declare each before the call it hoists out
 * of the initializer. Two workers add to a total without a lock.
 *
 * Expected verdict: false (unreach-call)
 * Faulty lines: 28 (the read-modify-write of total needs a lock)
 */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct node { struct node *next; int v; };

int init_slot(int *slot) { *slot = 5; return *slot + 1; }

int total;

void *worker(void *arg)
{
  int x = init_slot(&x);
  struct node *n = malloc(sizeof *n);
  (void)arg;
  if (!n)
    return 0;
  n->v = x;
  total = total + n->v;
  free(n);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 12);
  return 0;
}
