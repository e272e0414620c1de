/* A cache calls the eviction listener its caller hands in while it still holds the cache
 * lock (line 36, the unlock only at line 37). The listener takes the metrics lock; the
 * metrics dumper holds that lock while it asks the cache for its size, which takes the
 * cache lock: each thread waits for the lock the other holds. */
#include <pthread.h>

#define SLOTS 2

typedef void (*evict_fn)(int key);

pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t metrics_lock = PTHREAD_MUTEX_INITIALIZER;
int keys[SLOTS];
int used;
int evictions;
int reported;

void count_eviction(int key)
{
  pthread_mutex_lock(&metrics_lock);
  evictions = evictions + 1;
  pthread_mutex_unlock(&metrics_lock);
}

void cache_put(int key, evict_fn on_evict)
{
  int victim = -1;
  pthread_mutex_lock(&cache_lock);
  if (used == SLOTS) {
    victim = keys[0];
    keys[0] = keys[1];
    used = used - 1;
  }
  keys[used] = key;
  used = used + 1;
  if (victim >= 0) on_evict(victim);
  pthread_mutex_unlock(&cache_lock);
}

int cache_size(void)
{
  pthread_mutex_lock(&cache_lock);
  int n = used;
  pthread_mutex_unlock(&cache_lock);
  return n;
}

void *writer(void *arg)
{
  for (int k = 1; k <= 3; k++)
    cache_put(k, count_eviction);
  return arg;
}

void *dumper(void *arg)
{
  pthread_mutex_lock(&metrics_lock);
  reported = evictions + cache_size();
  pthread_mutex_unlock(&metrics_lock);
  return arg;
}

int main(void)
{
  pthread_t w, d;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&d, 0, dumper, 0);
  pthread_join(w, 0);
  pthread_join(d, 0);
  return 0;
}
