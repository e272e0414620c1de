/*
 * paper/circular_buffer_bad.c -- seqloc benchmark, Table III pattern
 * "circular_buffer_bad". A sender passes 1, 2, 3 to a receiver through a
 * two-place ring buffer. No mutex: each place has a "full" flag that the
 * sender sets after writing the value and the receiver clears after reading.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation
 * Faulty lines: 55, 56. The receiver clears the flag of a place (55)
 *   before reading its value (L56), so the sender may already reuse the
 *   place for the next value. The two statements are in the wrong order.
 *
 * Failing interleaving (4 context switches):
 *   main: L68,L69 create sender S and receiver R; L70 join(S) blocks
 *   S:    k=0: L40 ring[0] = 1, full[0] = 1; k=1: ring[1] = 2, full[1] = 1;
 *         (k=2 still to come)                                          [switch 1]
 *   R:    k=0: L54 full[0] set, L55 full[0] = 0                        [switch 2]
 *   S:    k=2: L39 full[0] clear, L40 ring[0] = 3, full[0] = 1; S ends [switch 3]
 *   R:    L56 v = ring[0] = 3; L57 assertion fails (3 != 1)            [switch 4]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "circular_buffer_bad.c", 25, "reach_error"); }
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
      full[pos] = 0;
      v = ring[pos];
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
