// seqloc-expect: no-failure
// One command-line string read twice, the second time in a thread's loop: the same
// string gives the same number every time (a model with two independent numbers once
// called this program failing).
#include <stdlib.h>
#include <pthread.h>
#include <assert.h>

int limit;
int seen;

void *worker(void *arg)
{
  (void)arg;
  seen = limit;
  return 0;
}

int main(int argc, char **argv)
{
  pthread_t t;
  if (argc < 2)
    return 0;
  limit = atoi(argv[1]);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  for (int i = 0; i < 2; i++)
    assert(atoi(argv[1]) == seen);
  return 0;
}
