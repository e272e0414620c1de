/*
 * correct/table_init_ok.c -- fixed version of concbugs/table_use_before_init.c (seqloc benchmark).
 *
 * order violation (use before
 * initialisation by another thread). A loader thread fills a table of
 * squares; a worker sums the table.
 *
 * Fix: main joins the loader before it creates the worker.
 *
 * Expected verdict: true (unreach-call)
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
  pthread_join(l, 0);
  pthread_create(&w, 0, worker, 0);
  pthread_join(w, 0);
  assert(result == 0 + 1 + 4 + 9);
  return 0;
}
