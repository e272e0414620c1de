/*
 * concbugs/reading_split_atomic.c -- multi-variable atomicity violation with
 * __VERIFIER_atomic_begin/end. A sensor publishes a reading together with
 * its sequence number (invariant: reading == 10 * seq); a monitor takes a
 * snapshot of both in one atomic section.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (multi-variable)
 * Faulty lines: 37, 38. The sensor updates the sequence number and the
 *   reading in two atomic sections (ended at L37, restarted at L38); the
 *   pair must be updated in a single atomic section.
 *
 * Failing interleaving (2 context switches):
 *   main: L60,L61 create sensor S and monitor M; L62 join(S) blocks
 *   S:    k=1: L36 seq = 1, L37 end of the first atomic section        [switch 1]
 *   M:    L50 snapshot s = 1, r = 0; L53 fails (0 != 10)               [switch 2]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "reading_split_atomic.c", 24, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

int seq = 0;
int reading = 0;

void *sensor(void *arg)
{
  int k;
  (void)arg;
  for (k = 1; k <= 2; k++) {
    __VERIFIER_atomic_begin();
    seq = k;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    reading = 10 * k;
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *monitor(void *arg)
{
  int s, r;
  (void)arg;
  __VERIFIER_atomic_begin();
  s = seq;
  r = reading;
  __VERIFIER_atomic_end();
  __VERIFIER_assert(r == 10 * s);
  return 0;
}

int main(void)
{
  pthread_t s, m;
  pthread_create(&s, 0, sensor, 0);
  pthread_create(&m, 0, monitor, 0);
  pthread_join(s, 0);
  pthread_join(m, 0);
  return 0;
}
