// seqloc-expect: no-failure
// A variable-length array filled before the worker that sums it starts; its size is
// `n` elements (`sizeof` of a variable-length array is computed when it is declared).
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
  unsigned k = n;
  n = 99; /* the array keeps the length it was declared with */
  assert(sizeof data == k * sizeof(int));
  for (unsigned i = 0; i < k; i++)
    data[i] = 1;
  struct job j = { data, k, 0 };
  pthread_t t;
  pthread_create(&t, 0, summer, &j);
  pthread_join(t, 0);
  assert(j.sum == (int)k);
  return 0;
}
