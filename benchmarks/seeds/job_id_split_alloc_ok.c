/*
 * seeds/job_id_split_alloc_ok.c -- fixed version of seeds/job_id_split_alloc_bad.c (seqloc benchmark).
 *
 * single-variable atomicity violation
 * (read-modify-write split by a lock release). Two submitters get job ids
 * from a shared counter that wraps around after MAX_JOB_ID; every access
 * to the counter is made under id_lock.
 *
 * Fix: alloc_job_id reads, wraps and advances the counter in one critical section.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "job_id_split_alloc_ok.c", 17, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define MAX_JOB_ID 50

int next_job_id = 1;
int issued[2];
pthread_mutex_t id_lock;

int alloc_job_id(void)
{
  int id;
  pthread_mutex_lock(&id_lock);
  id = next_job_id;
  if (id >= MAX_JOB_ID)
    id = 1;
  next_job_id = id + 1;
  pthread_mutex_unlock(&id_lock);
  return id;
}

void *submitter(void *arg)
{
  int who = *(int *)arg;
  issued[who] = alloc_job_id();
  return 0;
}

int main(void)
{
  pthread_t s0, s1;
  int who0 = 0, who1 = 1;
  pthread_mutex_init(&id_lock, 0);
  pthread_create(&s0, 0, submitter, &who0);
  pthread_create(&s1, 0, submitter, &who1);
  pthread_join(s0, 0);
  pthread_join(s1, 0);
  __VERIFIER_assert(issued[0] != issued[1]);
  return 0;
}
