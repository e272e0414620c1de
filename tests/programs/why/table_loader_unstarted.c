// A loader thread fills a lookup table; a query thread created right after it uses
// the table. main joins both only at the end, so the query can run before the loader
// has started at all: the query's creation (line 38) must wait for the loader's join.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int table[3];
static int table_size;

static void *loader(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&table_lock);
  table[0] = 2;
  table[1] = 3;
  table[2] = 5;
  table_size = 3;
  pthread_mutex_unlock(&table_lock);
  return 0;
}

static void *query(void *arg)
{
  int *out = arg;
  pthread_mutex_lock(&table_lock);
  assert(table_size == 3);
  *out = table[1];
  pthread_mutex_unlock(&table_lock);
  return 0;
}

int main(void)
{
  pthread_t l, q;
  int answer = 0;
  pthread_create(&l, 0, loader, 0);
  pthread_create(&q, 0, query, &answer);
  pthread_join(l, 0);
  pthread_join(q, 0);
  return 0;
}
