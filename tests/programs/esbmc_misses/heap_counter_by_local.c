/*
 * Hit counters allocated by main, one per page; each visitor thread gets the
 * page's counter and bumps it without a lock, through its own copy of the
 * pointer: a preemption between the read and the write loses a hit.
 *
 * Expected verdict: false (unreach-call)
 * Faulty lines: 20, 21 (the read and the write-back belong in one critical section)
 */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

int *counters;

void *visitor(void *arg)
{
  int page = *(int *)arg;
  int *hits = &counters[page];
  int now;
  now = *hits;
  *hits = now + 1;
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  int page = 1;
  counters = calloc(2, sizeof *counters);
  if (!counters)
    return 0;
  pthread_create(&t1, 0, visitor, &page);
  pthread_create(&t2, 0, visitor, &page);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counters[1] == 2);
  free(counters);
  return 0;
}
