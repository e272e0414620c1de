/*
 * concbugs/table_use_before_init.c -- order violation (use before
 * initialisation by another thread). A loader thread fills a table of
 * squares; a worker sums the table.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation
 * Faulty lines: 49, 50. main creates the worker (49) before it has joined
 *   the loader (L50), so the worker can read the table before it is filled.
 *   The loader must be joined before the worker is created.
 *
 * Failing interleaving (3 context switches):
 *   main:   L48,L49 create loader L and worker W; L50 join(L) blocks
 *   W:      L40 sums the table while it is still all zero: result = 0  [switch 1]
 *   L:      L31 fills table = 0, 1, 4, 9; L ends                       [switch 2]
 *   main:   joins; L52 assertion fails (0 != 14)                       [switch 3]
 */
#include <pthread.h>
#include <assert.h>

#define N 4

int table[N];
int result = 0;

void *loader(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < N; i++)
    table[i] = i * i;
  return 0;
}

void *worker(void *arg)
{
  int i, s = 0;
  (void)arg;
  for (i = 0; i < N; i++)
    s = s + table[i];
  result = s;
  return 0;
}

int main(void)
{
  pthread_t l, w;
  pthread_create(&l, 0, loader, 0);
  pthread_create(&w, 0, worker, 0);
  pthread_join(l, 0);
  pthread_join(w, 0);
  assert(result == 0 + 1 + 4 + 9);
  return 0;
}
