// seqloc-expect: failure 26
// main hands a worker a variable-length array to sum, and sets its elements only after
// starting the worker: the worker may sum elements still 0.
#include <pthread.h>
#include <assert.h>
extern unsigned __VERIFIER_nondet_uint(void);
struct job { int *data; unsigned n; int sum; };
void *summer(void *arg) {
  struct job *j = arg;
  int s = 0;
  for (unsigned i = 0; i < j->n; i++)
    s += j->data[i];
  j->sum = s;
  return 0;
}
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  if (n < 1 || n > 3) return 0;
  int data[n];
  for (unsigned i = 0; i < n; i++)
    data[i] = 0;
  struct job j = { data, n, 0 };
  pthread_t t;
  pthread_create(&t, 0, summer, &j);
  for (unsigned i = 0; i < n; i++)
    data[i] = 1; /* the fault: set after the worker started */
  pthread_join(t, 0);
  assert(j.sum == (int)n);
  return 0;
}
