/*
 * correct/malloc_pop_ok.c -- fixed version of stress/malloc_node_pop.c (seqloc benchmark).
 *
 * malloc'ed shared linked nodes. main builds a
 * two-node stack on the heap; two workers pop one node each and record its
 * value.
 *
 * Fix: pop reads and unlinks the top node under a mutex.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <stdlib.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "malloc_pop_ok.c", 16, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

struct node {
  int value;
  struct node *next;
};

struct node *top = 0;
pthread_mutex_t top_lock = PTHREAD_MUTEX_INITIALIZER;
int taken[2];

struct node *pop(void)
{
  struct node *n;
  pthread_mutex_lock(&top_lock);
  n = top;
  if (n != 0)
    top = n->next;
  pthread_mutex_unlock(&top_lock);
  return n;
}

void *worker(void *arg)
{
  int id = *(int *)arg;
  struct node *n = pop();
  if (n != 0)
    taken[id] = n->value;
  return 0;
}

int main(void)
{
  pthread_t th[2];
  int ids[2];
  struct node *made[2];
  int i;
  for (i = 0; i < 2; i++) {
    made[i] = malloc(sizeof(struct node));
    if (made[i] == 0)
      abort();
    made[i]->value = i + 1;
    made[i]->next = top;
    top = made[i];
  }
  for (i = 0; i < 2; i++) {
    ids[i] = i;
    pthread_create(&th[i], 0, worker, &ids[i]);
  }
  for (i = 0; i < 2; i++)
    pthread_join(th[i], 0);
  __VERIFIER_assert(taken[0] + taken[1] == 3);
  for (i = 0; i < 2; i++)
    free(made[i]);
  return 0;
}
