// seqloc-expect: failure 35
// Two threads append to an array that grows with realloc. The producer appends under the
// mutex, but main's append (written out in main) forgets it: main can read `count`
// before the producer's append and then write over the producer's item, so an item is
// lost. The line a programmer changes is main's unlocked read of `count` (take the mutex
// around the whole append, as realloc_grow_ok.c does). Natively the window is small; the
// interleaving is the one a slow main thread would take.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

int *items;
int count;
int cap;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  if (count == cap) {
    cap = cap * 2;
    items = realloc(items, cap * sizeof(int));
  }
  items[count] = 2;
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  cap = 1;
  items = malloc(sizeof(int));
  pthread_create(&t, 0, producer, 0);
  int n = count;
  if (n == cap) {
    cap = cap * 2;
    items = realloc(items, cap * sizeof(int));
  }
  items[n] = 1;
  count = n + 1;
  pthread_join(t, 0);
  assert(count == 2);
  free(items);
  return 0;
}
