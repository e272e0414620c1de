// seqloc-expect: no-failure
// The twin of realloc_grow_fail.c with both appends under the mutex. Whichever thread
// appends second grows the array with realloc, which keeps the first item: the sum of
// the items is 3 in every run, and a shrink keeps the first of them too.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

int *items;
int count;
int cap;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void append(int v) {
  pthread_mutex_lock(&m);
  if (count == cap) {
    cap = cap * 2;
    items = realloc(items, cap * sizeof(int));
  }
  items[count] = v;
  count = count + 1;
  pthread_mutex_unlock(&m);
}

void *producer(void *arg) {
  (void)arg;
  append(2);
  return 0;
}

int main(void) {
  pthread_t t;
  cap = 1;
  items = malloc(sizeof(int));
  pthread_create(&t, 0, producer, 0);
  append(1);
  pthread_join(t, 0);
  assert(count == 2 && items[0] + items[1] == 3);
  int first = items[0];
  items = realloc(items, sizeof(int));
  assert(items[0] == first);
  free(items);
  return 0;
}
