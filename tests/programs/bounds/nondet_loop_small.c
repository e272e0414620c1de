/* The same loop, with a claim that holds only while it runs fewer than 3 times. */
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int x;

void *adder(void *arg) {
  while (__VERIFIER_nondet_int()) {
    x = x + 2;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, adder, 0);
  pthread_join(t, 0);
  assert(x < 6);
  return 0;
}
