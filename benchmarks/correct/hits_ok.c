/*
 * correct/hits_ok.c -- fixed version of concbugs/hits_atomic_getset.c (seqloc benchmark).
 *
 * single-variable atomicity violation
 * (read-modify-write). Each access to the hit counter is atomic
 * (__VERIFIER_atomic_* functions), but a visitor's increment is a get
 * followed by a separate set.
 *
 * Fix: A visitor increments the counter in one atomic function.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "hits_ok.c", 17, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

int hits = 0;

void __VERIFIER_atomic_inc_hits(void)
{
  hits = hits + 1;
}

void *visitor(void *arg)
{
  (void)arg;
  __VERIFIER_atomic_inc_hits();
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
