/* A counter boxed on the heap: `malloc` converted from `void *` in an assignment and in a
 * declaration. Both workers update it under the lock: correct. The explorer must prove
 * it (every interleaving), not give up at the conversion of the call's result. */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct box {
  int count;
};

struct box *shared_box;
pthread_mutex_t box_lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&box_lock);
  shared_box->count = shared_box->count + 1;
  pthread_mutex_unlock(&box_lock);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  struct box *spare = malloc(sizeof(struct box));
  shared_box = malloc(sizeof(struct box));
  shared_box->count = 0;
  spare->count = 7;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(shared_box->count == 2);
  assert(spare->count == 7);
  free(spare);
  free(shared_box);
  return 0;
}
