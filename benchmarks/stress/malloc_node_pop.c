/*
 * stress/malloc_node_pop.c -- malloc'ed shared linked nodes. main builds a
 * two-node stack on the heap; two workers pop one node each and record its
 * value.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (lost update of the list head)
 * Faulty lines: 36, 38. pop reads the top pointer (36) and unlinks the
 *   node (L38) without synchronisation; both workers can pop the same node.
 *
 * Failing interleaving (4 context switches):
 *   main: L63 pushes values 1 then 2 (top is the node with 2); L67 creates
 *         W0, W1; L70 join(W0) blocks
 *   W0:   L36 n = node 2                                               [switch 1]
 *   W1:   L36 n = node 2, L38 top = node 1, L47 taken[1] = 2; W1 ends  [switch 2]
 *   W0:   L38 top = node 1, taken[0] = 2; W0 ends                      [switch 3]
 *   main: joins; L71 fails (2 + 2 != 3)                                [switch 4]
 */
#include <pthread.h>
#include <stdlib.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "malloc_node_pop.c", 23, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

struct node {
  int value;
  struct node *next;
};

struct node *top = 0;
int taken[2];

struct node *pop(void)
{
  struct node *n = top;
  if (n != 0)
    top = n->next;
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
