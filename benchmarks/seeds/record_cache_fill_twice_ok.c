/*
 * seeds/record_cache_fill_twice_ok.c -- fixed version of seeds/record_cache_fill_twice_bad.c (seqloc benchmark).
 *
 * check-then-act on a cache
 * entry. Two clients read records through a small cache in front of a
 * backing store that lets a record be opened once (a second open leaks the
 * first handle). cache_get returns the cached value or opens the record
 * and fills the entry; every access to the cache is made under cache_lock.
 *
 * Fix: cache_get keeps cache_lock from the test through the open and the fill.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "record_cache_fill_twice_ok.c", 18, "reach_error"); }
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
  value = store_open(key);
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
