/*
 * A loader fills a table and wakes the reader, which waits on a condition variable until
 * `loaded` is set. The loader signals before it sets the flag: when the reader tests the
 * flag between the two, it waits for a wake-up that has already gone, for ever.
 * Faulty line: 23 (the signal belongs after line 25, once `loaded` is set).
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t table_ready = PTHREAD_COND_INITIALIZER;
int table[2];
int loaded;

void *loader(void *arg)
{
  int base = 10;
  (void)arg;
  pthread_mutex_lock(&table_lock);
  table[0] = base;
  table[1] = base + 1;
  pthread_mutex_unlock(&table_lock);
  pthread_cond_signal(&table_ready);
  pthread_mutex_lock(&table_lock);
  loaded = 1;
  pthread_mutex_unlock(&table_lock);
  return 0;
}

int main(void)
{
  pthread_t t;
  int sum;
  pthread_create(&t, 0, loader, 0);
  pthread_mutex_lock(&table_lock);
  while (!loaded)
    pthread_cond_wait(&table_ready, &table_lock);
  sum = table[0] + table[1];
  pthread_mutex_unlock(&table_lock);
  pthread_join(t, 0);
  assert(sum == 21);
  return 0;
}
