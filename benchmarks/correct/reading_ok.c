/*
 * correct/reading_ok.c -- fixed version of concbugs/reading_split_atomic.c (seqloc benchmark).
 *
 * multi-variable atomicity violation with
 * __VERIFIER_atomic_begin/end. A sensor publishes a reading together with
 * its sequence number (invariant: reading == 10 * seq); a monitor takes a
 * snapshot of both in one atomic section.
 *
 * Fix: The sensor updates the sequence number and the reading in one atomic section.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "reading_ok.c", 19, "reach_error"); }
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
