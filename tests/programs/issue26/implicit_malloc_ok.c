// seqloc-expect: no-failure
// The twin of implicit_malloc_fail.c with the update under the node's own lock.
#include <assert.h>
#include <pthread.h>

struct node {
  int count;
  pthread_mutex_t m;
};
struct node *shared;

void *bump(void *arg) {
  pthread_mutex_lock(&shared->m);
  int c = shared->count;
  c = c + 1;
  shared->count = c;
  pthread_mutex_unlock(&shared->m);
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
