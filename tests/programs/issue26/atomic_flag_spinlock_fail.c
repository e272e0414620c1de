// seqloc-expect: failure 19
// A spinlock from atomic_flag (atomic_flag_test_and_set/atomic_flag_clear) that one of the
// two writers does not take: its read-modify-write of `count` can interleave with the
// locked one's, and an update is lost.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_flag busy = ATOMIC_FLAG_INIT;
int count;
void *locked(void *arg) {
  while (atomic_flag_test_and_set(&busy))
    ;
  count = count + 1;
  atomic_flag_clear(&busy);
  return 0;
}
void *unlocked(void *arg) {
  // The line to fix: this update needs the lock too.
  count = count + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, locked, 0);
  pthread_create(&b, 0, unlocked, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2);
  return 0;
}
