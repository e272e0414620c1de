/*
 * seeds/record_cache_fill_twice_bad.c -- check-then-act on a cache
 * entry. Two clients read records through a small cache in front of a
 * backing store that lets a record be opened once (a second open leaks the
 * first handle). cache_get returns the cached value or opens the record
 * and fills the entry; every access to the cache is made under cache_lock.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (check-then-act, double initialisation)
 * Faulty lines: 61, 63. On a miss cache_get releases cache_lock (L61)
 *   for the slow open and takes it again (L63) to fill the entry; a second
 *   client can miss on the same key in between and open the record again.
 *   The test and the fill belong in one critical section.
 *
 * Failing interleaving (2 context switches):
 *   main: L90,L91 create clients A and B; L92 join(A) blocks
 *   A:    L75 key 1: L55 lock, L56 not cached, L61 unlock, L62 store_open:
 *         L48 opens[1] = 1                                        [switch 1]
 *   B:    L75 key 1: L55 lock, L56 not cached (A has not filled it yet),
 *         L61 unlock, L62 store_open: L47 fails (opens[1] is 1)   [switch 2]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "record_cache_fill_twice_bad.c", 26, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define KEYS 2

struct cache_entry {
  int valid;
  int value;
};

struct client {
  int keys[2];
  int sum;
};

pthread_mutex_t cache_lock;        /* guards cache[] */
struct cache_entry cache[KEYS];
int opens[KEYS];                   /* open handles per record in the store */

static int store_open(int key)
{
  __VERIFIER_assert(opens[key] == 0);
  opens[key] = opens[key] + 1;
  return 100 + key;
}

static int cache_get(int key)
{
  int value;
  pthread_mutex_lock(&cache_lock);
  if (cache[key].valid) {
    value = cache[key].value;
    pthread_mutex_unlock(&cache_lock);
    return value;
  }
  pthread_mutex_unlock(&cache_lock);
  value = store_open(key);
  pthread_mutex_lock(&cache_lock);
  cache[key].value = value;
  cache[key].valid = 1;
  pthread_mutex_unlock(&cache_lock);
  return value;
}

void *client(void *arg)
{
  struct client *c = arg;
  int j;
  for (j = 0; j < 2; j++)
    c->sum = c->sum + cache_get(c->keys[j]);
  return 0;
}

int main(void)
{
  pthread_t ta, tb;
  struct client a, b;
  pthread_mutex_init(&cache_lock, 0);
  a.keys[0] = 1;
  a.keys[1] = 0;
  a.sum = 0;
  b.keys[0] = 1;
  b.keys[1] = 1;
  b.sum = 0;
  pthread_create(&ta, 0, client, &a);
  pthread_create(&tb, 0, client, &b);
  pthread_join(ta, 0);
  pthread_join(tb, 0);
  return 0;
}
