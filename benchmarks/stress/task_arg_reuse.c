/*
 * stress/task_arg_reuse.c -- thread argument pointing at a struct on main's
 * stack. main describes each task in a struct and passes its address to a
 * worker, which writes weight * 10 into out[id].
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation
 * Faulty lines: 45, 46. main reuses the one struct for the second task
 *   (L45, L46) while the first worker may not have read it yet; each worker
 *   needs its own struct.
 *
 * Failing interleaving (3 context switches):
 *   main: L42 spec = (0, 3), L44 creates A, L45,L46 spec = (1, 4), L47 creates B;
 *         L48 join(A) blocks
 *   A:    L32 id = 1, weight = 4, L34 out[1] = 40; A ends              [switch 1]
 *   B:    id = 1, weight = 4, out[1] = 40; B ends                      [switch 2]
 *   main: joins; L50 fails (out[0] is 0)                               [switch 3]
 */
#include <pthread.h>
#include <assert.h>

struct task {
  int id;
  int weight;
};

int out[2];

void *run(void *arg)
{
  struct task *t = (struct task *)arg;
  int id = t->id;
  int w = t->weight;
  out[id] = w * 10;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  struct task spec;
  spec.id = 0;
  spec.weight = 3;
  pthread_create(&a, 0, run, &spec);
  spec.id = 1;
  spec.weight = 4;
  pthread_create(&b, 0, run, &spec);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(out[0] == 30 && out[1] == 40);
  return 0;
}
