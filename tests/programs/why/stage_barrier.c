// Three scanners each count the hits of their own shard and meet `main` at a
// barrier before it adds the counts up. The barrier is made for 2 (line 34) while
// four threads wait at it, two at a time: `main` can pass with one scanner and add
// up a count not made yet.
#include <pthread.h>
#include <assert.h>

#define SHARDS 3

static pthread_barrier_t scanned;
static int hits[SHARDS];

static int scan_shard(int shard)
{
  int n = 0;
  for (int k = 0; k <= shard; k++)
    n += 2;
  return n;
}

static void *scanner(void *arg)
{
  int shard = *(int *)arg;
  hits[shard] = scan_shard(shard);
  pthread_barrier_wait(&scanned);
  return 0;
}

int main(void)
{
  pthread_t t[SHARDS];
  int shard[SHARDS];
  int total = 0;
  pthread_barrier_init(&scanned, 0, SHARDS - 1);
  for (int i = 0; i < SHARDS; i++) {
    shard[i] = i;
    pthread_create(&t[i], 0, scanner, &shard[i]);
  }
  pthread_barrier_wait(&scanned);
  for (int i = 0; i < SHARDS; i++)
    total += hits[i];
  assert(total == 2 + 4 + 6);
  for (int i = 0; i < SHARDS; i++)
    pthread_join(t[i], 0);
  return 0;
}
