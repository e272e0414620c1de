// seqloc-expect: no-failure
// Each worker counts its own calls in a buffer kept under a key, reached through
// `pthread_getspecific` wherever it is needed; the key's destructor frees the buffer at
// the thread's exit. Neither worker can touch the other's count.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

pthread_key_t counter_key;

static void release(void *p) { free(p); }

static void bump(void) {
  int *c = pthread_getspecific(counter_key);
  *c = *c + 1;
}

void *worker(void *arg) {
  (void)arg;
  int *mine = malloc(sizeof(int));
  if (mine == 0)
    return 0;
  *mine = 0;
  pthread_setspecific(counter_key, mine);
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
