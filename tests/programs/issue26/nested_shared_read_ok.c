// seqloc-expect: no-failure
// Threads share a ring of `void *` slots and a struct through pointers; reads nest
// (`q->slot[q->head]`, `r.vals[r.idx[k]]`), which once made the normalizer leak a
// placeholder variable id (a panic in Program::var). Correct.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

struct ring {
  int head;
  void *slot[4];
  int idx[4];
  int vals[4];
};
struct ring r;
int a = 1, b = 2;

void *producer(void *arg) {
  struct ring *q = arg;
  q->slot[q->head] = &a;
  q->slot[q->head + 1] = &b;
  q->head = q->head + 2;
  q->vals[q->idx[q->head - 1]] = 4;
  return 0;
}

int main(void) {
  pthread_t t;
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < 4);
  r.idx[k] = k;
  pthread_create(&t, 0, producer, &r);
  int seen = r.vals[r.idx[k]];
  pthread_join(t, 0);
  int *second = (int *)r.slot[r.head - 1];
  assert(*second == 2);
  assert(seen == 0 || seen == 4 || r.vals[r.idx[k]] == seen);
  assert(r.vals[r.idx[1]] < 5);
  return 0;
}
