/* A join loop that stops one thread short: main reads the last worker's result before
 * that worker ran. The fault is the bound of the join loop (line 26). */
#include <pthread.h>
#include <assert.h>

#define WORKERS 4

struct slot {
  int done;
  long value;
};

struct slot slots[WORKERS];

void *fill(void *arg)
{
  struct slot *s = (struct slot *)arg;
  s->value = 7;
  s->done = 1;
  return 0;
}

void join_all(pthread_t *ts)
{
  int j = 0;
  while (j < WORKERS - 1) {
    pthread_join(ts[j], 0);
    j++;
  }
}

int main(void)
{
  pthread_t ts[WORKERS];
  int k;
  for (k = 0; k < WORKERS; k++)
    pthread_create(&ts[k], 0, fill, &slots[k]);
  join_all(ts);
  for (k = 0; k < WORKERS; k++)
    assert(slots[k].done == 1);
  return 0;
}
