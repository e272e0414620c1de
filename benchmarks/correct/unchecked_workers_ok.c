/*
 * correct/unchecked_workers_ok.c -- a program with nothing to check (seqloc benchmark).
 *
 * Forty workers count requests in a shared total with an unsynchronised
 * read-modify-write, so updates are lost; the consistency check (which would hold:
 * each worker adds at most one, so a lost update only lowers the total) is compiled
 * only with -DCHECK_TOTAL. Without it no assertion or error call is
 * reachable, so no execution can violate unreach-call, however the threads
 * interleave: a checker should say so at once instead of enumerating 40 racing
 * threads (SV-COMP's fkp2013 family without its assertion).
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "unchecked_workers_ok.c", 18, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define WORKERS 40

int total = 0;
int served[WORKERS];

void check_total(int joined)
{
  __VERIFIER_assert(total <= joined);
}

void *worker(void *arg)
{
  int id = *(int *)arg;
  int seen = total;
  total = seen + 1;
  served[id] = 1;
  return NULL;
}

int main(void)
{
  pthread_t t[WORKERS];
  int ids[WORKERS];
  for (int i = 0; i < WORKERS; i++) {
    ids[i] = i;
    pthread_create(&t[i], NULL, worker, &ids[i]);
  }
  for (int i = 0; i < WORKERS; i++) {
    pthread_join(t[i], NULL);
  }
#ifdef CHECK_TOTAL
  check_total(WORKERS);
#endif
  return 0;
}
