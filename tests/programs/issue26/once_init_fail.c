// seqloc-expect: failure 14
// The same table set up through a plain flag instead of `pthread_once`: both workers can
// read `ready` as 0 before either sets it, so `setup` runs twice.
#include <pthread.h>
#include <assert.h>
int ready;
int inits;
int table[4];
void setup(void) {
  inits++;
  table[0] = 42;
}
void *worker(void *arg) {
  if (!ready) {
    setup();
    ready = 1;
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(inits == 1);
  return 0;
}
