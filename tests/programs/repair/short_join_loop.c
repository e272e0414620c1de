/* expect: repair */
/* faulty: 34
 * main starts four counters and joins them in a loop that stops one short
 * (line 34: `k + 1 < WORKERS`), then reads every counter's tally: the last
 * counter may not have written its tally yet. */
#include <pthread.h>
#include <assert.h>

#define WORKERS 4

int tally[WORKERS];

void *count(void *arg)
{
  int me = *(int *)arg;
  int n = 0;
  int j;
  for (j = 0; j < 2; j++)
    n = n + 1;
  tally[me] = n;
  return 0;
}

int main(void)
{
  pthread_t w[WORKERS];
  int id[WORKERS];
  int k, sum = 0;
  for (k = 0; k < WORKERS; k++) {
    id[k] = k;
    pthread_create(&w[k], 0, count, &id[k]);
  }
  for (k = 0; k + 1 < WORKERS; k++)
    pthread_join(w[k], 0);
  for (k = 0; k < WORKERS; k++)
    sum = sum + tally[k];
  assert(sum == 2 * WORKERS);
  return 0;
}
