/*
 * correct/stats_ok.c -- fixed version of concbugs/stats_multivar_race.c (seqloc benchmark).
 *
 * multi-variable data race. A recorder
 * keeps a count of samples and their sum (every sample is 5, so
 * sum == 5 * count); a reporter reads both. Nothing is synchronised.
 *
 * Fix: Both the pair of updates and the pair of reads are made under one mutex.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "stats_ok.c", 16, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
int count = 0;
int sum = 0;

void *recorder(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&stats_lock);
    count = count + 1;
    sum = sum + 5;
    pthread_mutex_unlock(&stats_lock);
  }
  return 0;
}

void *reporter(void *arg)
{
  int c, s;
  (void)arg;
  pthread_mutex_lock(&stats_lock);
  c = count;
  s = sum;
  pthread_mutex_unlock(&stats_lock);
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
