/*
 * stress/job_struct_wronglock.c -- pointers and structs passed to threads.
 * main keeps an account and two jobs on its stack; each worker gets a
 * pointer to its job, which points at the shared account.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (wrong lock)
 * Faulty lines: 37, 40. A worker locks its own job's mutex (37, 40), which
 *   no other worker takes, instead of the account's; the read-modify-write
 *   of the balance is unprotected.
 *
 * Failing interleaving (4 context switches):
 *   main: L51 balance = 100, jobs +20 and -50; L59 creates W0, W1; L61 join(W0) blocks
 *   W0:   L37 locks job 0, L38 b = 100                                 [switch 1]
 *   W1:   L37 locks job 1, L38 b = 100, L39 balance = 50; W1 ends      [switch 2]
 *   W0:   L39 balance = 120; W0 ends                                   [switch 3]
 *   main: joins; L62 fails (120 != 70)                                 [switch 4]
 */
#include <pthread.h>
#include <assert.h>

struct account {
  pthread_mutex_t lock;
  int balance;
};

struct job {
  pthread_mutex_t lock;
  struct account *acct;
  int amount;
};

void *apply(void *arg)
{
  struct job *j = (struct job *)arg;
  int b;
  pthread_mutex_lock(&j->lock);
  b = j->acct->balance;
  j->acct->balance = b + j->amount;
  pthread_mutex_unlock(&j->lock);
  return 0;
}

int main(void)
{
  struct account acct;
  struct job jobs[2];
  pthread_t th[2];
  int i;
  pthread_mutex_init(&acct.lock, 0);
  acct.balance = 100;
  for (i = 0; i < 2; i++) {
    pthread_mutex_init(&jobs[i].lock, 0);
    jobs[i].acct = &acct;
  }
  jobs[0].amount = 20;
  jobs[1].amount = -50;
  for (i = 0; i < 2; i++)
    pthread_create(&th[i], 0, apply, &jobs[i]);
  for (i = 0; i < 2; i++)
    pthread_join(th[i], 0);
  assert(acct.balance == 70);
  return 0;
}
