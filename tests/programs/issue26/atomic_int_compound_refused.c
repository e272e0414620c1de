// seqloc-expect: refused _Atomic
// `atomic_int` from <stdatomic.h> with a compound assignment: refused like `_Atomic int`.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
struct stats { atomic_int hits; };
struct stats st;
void *worker(void *arg) {
  struct stats *s = arg;
  s->hits += 2;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, &st);
  pthread_create(&b, 0, worker, &st);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(st.hits == 4);
  return 0;
}
