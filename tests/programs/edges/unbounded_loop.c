/* A loop whose trip count is an input: no unwinding bound covers it, so a bounded check
 * ends with its loop bound reached (UNKNOWN), never with "no failure". */
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int x;

void *worker(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, worker, 0);
  int n = __VERIFIER_nondet_int();
  int i = 0;
  int s = 0;
  while (i < n) {
    i = i + 1;
    if (i % 7 == n % 5) {
      s = s + i;
    }
  }
  pthread_join(h, 0);
  assert(x == 1 && s >= 0);
  return 0;
}
