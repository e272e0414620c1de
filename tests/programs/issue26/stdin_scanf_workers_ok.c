// seqloc-expect: no-failure
// The number of workers is typed on standard input; each worker's update of `done` is
// under the lock, so every run counts them all, whatever the input (EOF, junk, 1, 2).
#include <stdio.h>
#include <pthread.h>
#include <assert.h>

#define MAX 2

int done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *work(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  done = done + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t t[MAX];
  int n = 1, i;
  if (scanf("%d", &n) == EOF)
    return 0;
  if (n < 1 || n > MAX)
    return 1;
  for (i = 0; i < n; i++)
    pthread_create(&t[i], 0, work, 0);
  for (i = 0; i < n; i++)
    pthread_join(t[i], 0);
  assert(done == n);
  return 0;
}
