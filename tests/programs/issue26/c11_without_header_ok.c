// seqloc-expect: no-failure
// C11's atomic_* functions called without <stdatomic.h> (implicitly declared, as ESBMC and
// CBMC accept) on _Atomic objects: each one indivisible step.
#include <pthread.h>
#include <assert.h>
_Atomic int counter;
void *worker(void *arg) {
  atomic_fetch_add(&counter, 1);
  atomic_fetch_add_explicit(&counter, 1, 5);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&counter) == 4);
  return 0;
}
