/*
 * correct/circular_buffer_ok.c -- fixed version of paper/circular_buffer_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern
 * "circular_buffer_bad". A sender passes 1, 2, 3 to a receiver through a
 * two-place ring buffer. No mutex: each place has a "full" flag that the
 * sender sets after writing the value and the receiver clears after reading.
 *
 * Fix: The receiver reads the value before it clears the place's full flag.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "circular_buffer_ok.c", 17, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define CAP 2
#define ROUNDS 3

int ring[CAP];
int full[CAP];

void *sender(void *arg)
{
  int k, pos = 0, next = 1;
  (void)arg;
  for (k = 0; k < ROUNDS; k++) {
    if (!full[pos]) {
      ring[pos] = next;
      full[pos] = 1;
      pos = (pos + 1) % CAP;
      next = next + 1;
    }
  }
  return 0;
}

void *receiver(void *arg)
{
  int k, v, pos = 0, expect = 1;
  (void)arg;
  for (k = 0; k < ROUNDS; k++) {
    if (full[pos]) {
      v = ring[pos];
      full[pos] = 0;
      __VERIFIER_assert(v == expect);
      pos = (pos + 1) % CAP;
      expect = expect + 1;
    }
  }
  return 0;
}

int main(void)
{
  pthread_t s, r;
  pthread_create(&s, 0, sender, 0);
  pthread_create(&r, 0, receiver, 0);
  pthread_join(s, 0);
  pthread_join(r, 0);
  return 0;
}
