/*
 * correct/task_arg_ok.c -- fixed version of stress/task_arg_reuse.c (seqloc benchmark).
 *
 * thread argument pointing at a struct on main's
 * stack. main describes each task in a struct and passes its address to a
 * worker, which writes weight * 10 into out[id].
 *
 * Fix: Each worker gets its own struct on main's stack.
 *
 * Expected verdict: true (unreach-call)
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
  struct task spec[2];
  spec[0].id = 0;
  spec[0].weight = 3;
  pthread_create(&a, 0, run, &spec[0]);
  spec[1].id = 1;
  spec[1].weight = 4;
  pthread_create(&b, 0, run, &spec[1]);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(out[0] == 30 && out[1] == 40);
  return 0;
}
