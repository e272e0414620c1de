/*
 * correct/job_struct_ok.c -- fixed version of stress/job_struct_wronglock.c (seqloc benchmark).
 *
 * pointers and structs passed to threads.
 * main keeps an account and two jobs on its stack; each worker gets a
 * pointer to its job, which points at the shared account.
 *
 * Fix: A worker locks the shared account's mutex.
 *
 * Expected verdict: true (unreach-call)
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
  pthread_mutex_lock(&j->acct->lock);
  b = j->acct->balance;
  j->acct->balance = b + j->amount;
  pthread_mutex_unlock(&j->acct->lock);
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
