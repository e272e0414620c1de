// seqloc-expect: no-failure
// Written for ESBMC: nondet_int() declared and never defined, __ESBMC_assume,
// __ESBMC_atomic_begin/end and __ESBMC_assert(cond, "message"). Both updates are atomic.
//
#include <pthread.h>
int nondet_int();
int balance;
void *deposit(void *arg) {
  __ESBMC_atomic_begin();
  balance = balance + 10;
  __ESBMC_atomic_end();
  return 0;
}
void *withdraw(void *arg) {
  __ESBMC_atomic_begin(); balance = balance - 5; __ESBMC_atomic_end();
  return 0;
}
int main() {
  int start = nondet_int();
  __ESBMC_assume(start >= 0 && start <= 100);
  balance = start;
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, withdraw, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __ESBMC_assert(balance == start + 5, "no update is lost");
  return 0;
}
