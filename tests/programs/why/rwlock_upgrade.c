/* A price cache: readers look a price up under the read lock and, on a miss,
 * fill it in. The miss path asks for the write lock while still holding its
 * read lock. */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t cache_lock = PTHREAD_RWLOCK_INITIALIZER;
int price[2];
int filled[2];

int lookup(int item)
{
  pthread_rwlock_rdlock(&cache_lock);
  if (filled[item]) {
    int p = price[item];
    pthread_rwlock_unlock(&cache_lock);
    return p;
  }
  pthread_rwlock_wrlock(&cache_lock);
  price[item] = 40 + item;
  filled[item] = 1;
  pthread_rwlock_unlock(&cache_lock);
  return price[item];
}

void *shopper(void *arg)
{
  int item = *(int *)arg;
  int p = lookup(item);
  assert(p == 40 + item);
  return 0;
}

int main(void)
{
  pthread_t t;
  int item = 1;
  pthread_create(&t, 0, shopper, &item);
  pthread_join(t, 0);
  return 0;
}
