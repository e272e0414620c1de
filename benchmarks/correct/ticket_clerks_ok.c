/*
 * correct/ticket_clerks_ok.c -- a bound that holds for any number of threads (seqloc benchmark).
 *
 * Up to 64 clerks (how many is an input) each issue three tickets by bumping a shared
 * counter with an unsynchronised read-modify-write, so updates may be lost. An auditor
 * thread, and main once every clerk is joined, check that no more tickets were counted
 * than issued: a lost update only lowers the count, so the check holds in every
 * interleaving. No search can show it (64 clerks of three racing increments each); a
 * counting argument does: the counter only grows from a value it held, by one per
 * increment, and the increment runs three times per clerk.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "ticket_clerks_ok.c", 18, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }

#define MAX_CLERKS 64
#define TICKETS_EACH 3

int issued = 0;
int clerks;

void *clerk(void *arg)
{
  for (int k = 0; k < TICKETS_EACH; k++) {
    int seen = issued;
    issued = seen + 1;
  }
  return NULL;
}

void *auditor(void *arg)
{
  __VERIFIER_assert(issued <= TICKETS_EACH * clerks);
  return NULL;
}

int main(void)
{
  pthread_t audit;
  pthread_t t[MAX_CLERKS];
  clerks = __VERIFIER_nondet_int();
  assume_abort_if_not(clerks >= 1 && clerks <= MAX_CLERKS);
  pthread_create(&audit, NULL, auditor, NULL);
  for (int i = 0; i < clerks; i++) {
    pthread_create(&t[i], NULL, clerk, NULL);
  }
  for (int i = 0; i < clerks; i++) {
    pthread_join(t[i], NULL);
  }
  int total = issued;
  __VERIFIER_assert(total <= TICKETS_EACH * clerks);
  return 0;
}
