// seqloc-expect: no-failure
// Plain loads and stores of an _Atomic object are each atomic, but a load followed by a
// store is two steps; here a mutex makes the pair one critical section.
#include <pthread.h>
#include <assert.h>
_Atomic int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int seen = counter;
  int next = seen + 1;
  counter = next;
  pthread_mutex_unlock(&m);
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
