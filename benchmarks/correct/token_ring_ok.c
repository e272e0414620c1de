/*
 * correct/token_ring_ok.c -- fixed version of paper/token_ring_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern
 * "token_ring_bad". Three stages form a ring: the stage holding the token
 * reads its predecessor's value, writes its own as that value plus one and
 * passes the token on. Each stage tries three times; when the token went
 * round, main checks the last value against the seed.
 *
 * Fix: A stage reads its predecessor's value only once it holds the mutex and the token.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "token_ring_ok.c", 19, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define STAGES 3
#define TRIES 3

int val[STAGES + 1];
int holder = 1;
pthread_mutex_t ring;

void *stage(void *arg)
{
  int me = *(int *)arg;
  int t, in, done = 0;
  for (t = 0; t < TRIES; t++) {
    if (done)
      break;
    pthread_mutex_lock(&ring);
    if (holder == me) {
      in = val[me - 1];
      val[me] = in + 1;
      holder = me + 1;
      done = 1;
    }
    pthread_mutex_unlock(&ring);
  }
  return 0;
}

int main(void)
{
  pthread_t th[STAGES];
  int ids[STAGES];
  int k;
  pthread_mutex_init(&ring, 0);
  val[0] = __VERIFIER_nondet_int();
  if (val[0] < 0 || val[0] > 9)
    val[0] = 0;
  for (k = 0; k < STAGES; k++) {
    ids[k] = k + 1;
    pthread_create(&th[k], 0, stage, &ids[k]);
  }
  for (k = 0; k < STAGES; k++)
    pthread_join(th[k], 0);
  if (holder == STAGES + 1)
    __VERIFIER_assert(val[STAGES] == val[0] + STAGES);
  return 0;
}
