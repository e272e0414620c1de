/*
 * Each worker marks the slot of its own index. main hands every worker the address of
 * its loop counter, which it goes on incrementing: a worker that reads it late takes the
 * next worker's index, and a slot is marked twice.
 * Faulty line: 27 (each thread needs its own copy of `i`).
 */
#include <pthread.h>
#include <assert.h>

#define N 2

int marks[N + 1]; /* a late reader may see i == N */

void *worker(void *arg)
{
  int id = *(int *)arg;
  marks[id] = marks[id] + 1;
  return 0;
}

int main(void)
{
  pthread_t t[N];
  int i;

  for (i = 0; i < N; i++)
    pthread_create(&t[i], 0, worker, &i);
  for (i = 0; i < N; i++)
    pthread_join(t[i], 0);
  for (i = 0; i < N; i++)
    assert(marks[i] == 1);
  return 0;
}
