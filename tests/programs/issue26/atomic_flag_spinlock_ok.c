// seqloc-expect: no-failure
// A spinlock from <stdatomic.h>'s atomic_flag (atomic_flag_test_and_set/atomic_flag_clear,
// GCC's __atomic_test_and_set/__atomic_clear) around a plain read-modify-write.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_flag busy = ATOMIC_FLAG_INIT;
int count;
void *worker(void *arg) {
  while (atomic_flag_test_and_set(&busy))
    ;
  count = count + 1;
  atomic_flag_clear(&busy);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2);
  return 0;
}
