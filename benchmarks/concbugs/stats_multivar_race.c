/*
 * concbugs/stats_multivar_race.c -- multi-variable data race. A recorder
 * keeps a count of samples and their sum (every sample is 5, so
 * sum == 5 * count); a reporter reads both. Nothing is synchronised.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (multi-variable)
 * Faulty lines: 32, 33, 42, 43. The two related updates (32, 33) and
 *   the two reads (L42, L43) are unprotected; both pairs must be made atomic
 *   with respect to each other (one lock around each pair).
 *
 * Failing interleaving (2 context switches):
 *   main:     L51,L52 create recorder W and reporter R; L53 join(W) blocks
 *   W:        i=0: L32 count = 1                                       [switch 1]
 *   R:        L42 c = 1, L43 s = 0; L44 fails (0 != 5)                 [switch 2]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "stats_multivar_race.c", 21, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

int count = 0;
int sum = 0;

void *recorder(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < 2; i++) {
    count = count + 1;
    sum = sum + 5;
  }
  return 0;
}

void *reporter(void *arg)
{
  int c, s;
  (void)arg;
  c = count;
  s = sum;
  __VERIFIER_assert(s == 5 * c);
  return 0;
}

int main(void)
{
  pthread_t w, r;
  pthread_create(&w, 0, recorder, 0);
  pthread_create(&r, 0, reporter, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
