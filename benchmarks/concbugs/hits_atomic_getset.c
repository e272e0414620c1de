/*
 * concbugs/hits_atomic_getset.c -- single-variable atomicity violation
 * (read-modify-write). Each access to the hit counter is atomic
 * (__VERIFIER_atomic_* functions), but a visitor's increment is a get
 * followed by a separate set.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (read-modify-write)
 * Faulty lines: 43, 44. The increment is split into an atomic read
 *   (L43) and an atomic write (L44); another visitor's increment can fall
 *   in between and is lost. It must be one atomic increment.
 *
 * Failing interleaving (4 context switches):
 *   main: L51,L52 create visitors A, B; L53 join(A) blocks
 *   A:    L43 h = 0                                                    [switch 1]
 *   B:    L43 h = 0, L44 hits = 1; B ends                              [switch 2]
 *   A:    L44 hits = 1; A ends                                         [switch 3]
 *   main: joins; L55 assertion fails (hits == 1, not 2)                [switch 4]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "hits_atomic_getset.c", 24, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

int hits = 0;

int __VERIFIER_atomic_get_hits(void)
{
  return hits;
}

void __VERIFIER_atomic_set_hits(int v)
{
  hits = v;
}

void *visitor(void *arg)
{
  int h;
  (void)arg;
  h = __VERIFIER_atomic_get_hits();
  __VERIFIER_atomic_set_hits(h + 1);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, visitor, 0);
  pthread_create(&b, 0, visitor, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __VERIFIER_assert(hits == 2);
  return 0;
}
