// seqloc-expect: refused __atomic_fetch_add
// atomic_fetch_add on an atomic pointer: GCC's builtin adds bytes where C11 adds elements
// (and <stdatomic.h> passes it through), so seqloc refuses it rather than pick one.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
int buf[4];
_Atomic(int *) cursor = buf;
void *worker(void *arg) {
  int *mine = atomic_fetch_add(&cursor, 1);
  *mine = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(buf[0] + buf[1] == 2);
  return 0;
}
