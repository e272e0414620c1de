// seqloc-expect: no-failure
// The idiom that keeps the old block when realloc fails: the answer goes to a temporary,
// tested, and only then stored in the pointer. seqloc keeps the block's size beside the
// temporary too, so a second realloc knows how much to copy. Every append is locked.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

int *items;
int count, cap = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int append(int v)
{
  if (count == cap) {
    int *tmp = realloc(items, 2 * cap * sizeof *items);
    if (!tmp)
      return -1;
    items = tmp;
    cap = 2 * cap;
  }
  items[count] = v;
  count = count + 1;
  return 0;
}

void *producer(void *arg)
{
  pthread_mutex_lock(&m);
  append(*(int *)arg);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int x = 3, y = 4;
  items = malloc(sizeof *items);
  pthread_create(&a, 0, producer, &x);
  pthread_create(&b, 0, producer, &y);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2 && items[0] + items[1] == 7);
  free(items);
  return 0;
}
