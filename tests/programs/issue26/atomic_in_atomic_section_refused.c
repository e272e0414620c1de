// seqloc-expect: refused bump
// An atomic operation reached through a call inside an atomic section would be a nested
// section, which the sequentialization does not model: refused at the call.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
atomic_int counter;
void bump(void) { atomic_fetch_add(&counter, 1); }
void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  bump();
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, worker, 0);
  pthread_join(a, 0);
  assert(counter == 1);
  return 0;
}
