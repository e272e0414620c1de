/*
 * paper/token_ring_bad.c -- seqloc benchmark, Table III pattern
 * "token_ring_bad". Three stages form a ring: the stage holding the token
 * reads its predecessor's value, writes its own as that value plus one and
 * passes the token on. Each stage tries three times; when the token went
 * round, main checks the last value against the seed.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (stale read)
 * Faulty line: 47. A stage reads its predecessor's value before it has
 *   taken the mutex and checked that it holds the token, so it can use a
 *   value the predecessor has not written yet. The read belongs inside the
 *   "if (holder == me)" block.
 *
 * Failing interleaving (5 context switches), with seed 0:
 *   main: L65 val[0] = 0; L70 creates stages S1, S2, S3; L73 join(S1) blocks
 *   S2:   try 0: L47 in = val[1] = 0                                   [switch 1]
 *   S1:   try 0: L47 in = val[0] = 0, L49 holds the token, L50 val[1] = 1,
 *         L51 holder = 2, the other tries do nothing; S1 ends          [switch 2]
 *   S2:   L49 holds the token, L50 val[2] = 0 + 1 = 1, holder = 3; S2 ends
 *                                                                      [switch 3]
 *   S3:   L47 in = 1, val[3] = 2, holder = 4; S3 ends                  [switch 4]
 *   main: joins; holder == 4, L75 fails (val[3] = 2 != 0 + 3)          [switch 5]
 */
#include <stdlib.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "token_ring_bad.c", 30, "reach_error"); }
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
    in = val[me - 1];
    pthread_mutex_lock(&ring);
    if (holder == me) {
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
