/* Hints in source terms: a value returned by a helper (inlined through a temporary of
 * seqloc's), a heap pointer published to another thread, a lost update of a counter. */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

int *latest;
int count;

int next(int x) { return x + 1; }

void *worker(void *arg)
{
  int *p = malloc(sizeof(int));
  *p = 1;
  latest = p;
  int t = count;
  count = next(t);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(count == 2 && latest != NULL);
  return 0;
}
