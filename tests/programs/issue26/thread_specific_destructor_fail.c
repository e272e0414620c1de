// seqloc-expect: failure 16
// The twin of thread_specific_destructor_ok.c whose helper reaches the count through a
// global cache instead of the key: the other worker may overwrite `cached` between this
// worker's store and its increments, which then go to the other worker's buffer.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

pthread_key_t counter_key;
int *cached;

static void release(void *p) { free(p); }

static void bump(void) {
  int *c;
  c = cached;
  *c = *c + 1;
}

void *worker(void *arg) {
  (void)arg;
  int *mine = malloc(sizeof(int));
  if (mine == 0)
    return 0;
  *mine = 0;
  pthread_setspecific(counter_key, mine);
  cached = mine;
  bump();
  bump();
  assert(*mine == 2);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_key_create(&counter_key, release);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
