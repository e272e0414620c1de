// seqloc-expect: no-failure
// Two workers share a table that must be set up once: `pthread_once` runs `setup` in the
// first caller only, and the other caller returns only after it completed.
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int inits;
int table[4];
void setup(void) {
  inits++;
  table[0] = 42;
}
void *worker(void *arg) {
  pthread_once(&once, setup);
  assert(table[0] == 42);
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
