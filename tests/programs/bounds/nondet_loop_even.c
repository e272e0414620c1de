/* A thread adds 2 as many times as an input says: x stays even, but the loop has no
   bound for a bounded search to reach, and x no bound for the explorer's states. */
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
  assert(x % 2 == 0);
  return 0;
}
