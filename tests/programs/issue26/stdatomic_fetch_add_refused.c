// seqloc-expect: refused __atomic_fetch_add
// <stdatomic.h>'s atomic_fetch_add expands to GCC's __atomic_fetch_add: refused by name.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int counter;
int done;
void *worker(void *arg) {
  atomic_fetch_add(&counter, 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
