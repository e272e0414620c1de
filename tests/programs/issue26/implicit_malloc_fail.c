// seqloc-expect: failure 17
// `malloc` called without `<stdlib.h>`: gcc (and ESBMC, CBMC) take the library's own
// prototype, `void *malloc(size_t)`, not C89's `int malloc()` that would cut the pointer
// to 32 bits. The node is shared and its count updated without the lock.
#include <assert.h>
#include <pthread.h>

struct node {
  int count;
  pthread_mutex_t m;
};
struct node *shared;

void *bump(void *arg) {
  int c = shared->count;
  c = c + 1;
  shared->count = c;
  return 0;
}

int main(void) {
  pthread_t a, b;
  shared = (struct node *)malloc(sizeof(struct node));
  if (!shared)
    return 0;
  shared->count = 0;
  pthread_mutex_init(&shared->m, 0);
  pthread_create(&a, 0, bump, 0);
  pthread_create(&b, 0, bump, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(shared->count == 2);
  free(shared);
  return 0;
}
