// seqloc-expect: no-failure
// <stdatomic.h>'s atomic_fetch_add (GCC's __atomic_fetch_add) is one indivisible step:
// two threads each add 1, and each sees a different previous value.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int counter;
int seen[2];
void *worker(void *arg) {
  int mine = atomic_fetch_add(&counter, 1);
  seen[mine] = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&counter) == 2 && seen[0] && seen[1]);
  return 0;
}
