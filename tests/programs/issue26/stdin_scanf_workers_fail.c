// seqloc-expect: failure 17
// The number of workers is typed on standard input (`scanf`, any number a user may
// type); with two, their unlocked read-then-write of `done` can lose an update.
#include <stdio.h>
#include <pthread.h>
#include <assert.h>

#define MAX 2

int done;

void *work(void *arg)
{
  int d;
  (void)arg;
  d = done;
  done = d + 1;
  return 0;
}

int main(void)
{
  pthread_t t[MAX];
  int n, i;
  if (scanf("%d", &n) != 1)
    return 1;
  if (n < 1 || n > MAX)
    return 1;
  for (i = 0; i < n; i++)
    pthread_create(&t[i], 0, work, 0);
  for (i = 0; i < n; i++)
    pthread_join(t[i], 0);
  assert(done == n);
  return 0;
}
