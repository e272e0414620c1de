// seqloc-expect: no-failure
// The twin of argv_sscanf_fail.c with the update under a mutex: whatever numbers the
// command line gives (`sscanf` and `atoi` of argv, any value), the count is right.
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <assert.h>

#define MAX 2

int done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *work(void *arg)
{
  int d;
  (void)arg;
  pthread_mutex_lock(&m);
  d = done;
  done = d + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(int argc, char *argv[])
{
  pthread_t t[MAX];
  int n = 1, start = 0, i;
  if (argc > 1 && sscanf(argv[1], "%d", &n) != 1)
    return 1;
  if (argc > 2)
    start = atoi(argv[2]);
  if (n < 1 || n > MAX || start < 0 || start > 100)
    return 1;
  done = start;
  for (i = 0; i < n; i++)
    pthread_create(&t[i], 0, work, 0);
  for (i = 0; i < n; i++)
    pthread_join(t[i], 0);
  assert(done == start + n);
  return 0;
}
