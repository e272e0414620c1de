// seqloc-expect: refused __atomic_is_lock_free
// Builtins seqloc does not model stay refused by name (atomic_is_lock_free expands to
// GCC's __atomic_is_lock_free).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int counter;
int main(void) {
  assert(atomic_is_lock_free(&counter));
  return 0;
}
