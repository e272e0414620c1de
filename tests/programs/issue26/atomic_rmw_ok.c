// seqloc-expect: no-failure
// `counter++`, `counter += 2` and `--spare` on C11 _Atomic objects (also `atomic_int`) are
// each one indivisible read-modify-write (gcc emits `lock add`): no update is lost.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
_Atomic int counter;
atomic_int spare = 10;
void *worker(void *arg) {
  counter++;
  counter += 2;
  --spare;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 6 && spare == 8);
  return 0;
}
