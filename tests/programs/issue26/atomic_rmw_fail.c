// seqloc-expect: failure 15
// `counter += 2` on an _Atomic object is one indivisible step, but `counter = counter + 1`
// is a load and a store: the adder's update can fall between them and be overwritten.
#include <pthread.h>
#include <assert.h>
_Atomic int counter;
void *adder(void *arg) {
  counter += 2;
  return 0;
}
void *incrementer(void *arg) {
  counter++;
  // The line to fix: a separate load and store instead of the read-modify-write
  // `counter += 1`.
  counter = counter + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, adder, 0);
  pthread_create(&b, 0, incrementer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 4);
  return 0;
}
