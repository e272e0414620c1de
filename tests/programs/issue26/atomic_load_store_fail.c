// seqloc-expect: failure 10
// Plain loads and stores of an _Atomic object are each atomic, but a load followed by a
// store is two steps: another thread's store can fall between them (a real lost update).
#include <pthread.h>
#include <assert.h>
_Atomic int counter;
void *worker(void *arg) {
  int seen = counter;
  int next = seen + 1;
  counter = next;
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
