// seqloc-expect: failure 25
// The twin of argv_same_string_twice_ok.c with the worker started before the limit is
// read: it may copy the 0 that was there, while the same string read again gives the
// user's number.
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
  pthread_create(&t, 0, worker, 0);
  limit = atoi(argv[1]);
  pthread_join(t, 0);
  for (int i = 0; i < 2; i++)
    assert(atoi(argv[1]) == seen);
  return 0;
}
