// seqloc-expect: failure 23
// realloc_tmp_idiom_ok.c with the producers' mutex left out: two appends race on
// `count` (line 22 reads it for the slot, line 23 writes it back), so one item can
// land on the other's slot and the count be 1.
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
  // (no lock)
  append(*(int *)arg);
  // (no unlock)
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
