/*
 * seeds/job_mailbox_test_outside_lock_ok.c -- fixed version of seeds/job_mailbox_test_outside_lock_bad.c (seqloc benchmark).
 *
 * lost signal. A client posts one
 * job to an executor through a mailbox (a mutex, two condition variables)
 * and waits for the result; the executor waits for the job, computes the
 * result and signals it back.
 *
 * Fix: The executor tests "posted" under the mailbox mutex, in a while loop around the wait.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

struct mailbox {
  pthread_mutex_t lock;
  pthread_cond_t posted_cv;     /* signalled when a job is posted */
  pthread_cond_t done_cv;       /* signalled when its result is ready */
  int posted;
  int job;
  int done;
  int result;
};

struct mailbox mbox;
int answer = 0;

void *executor(void *arg)
{
  struct mailbox *m = arg;
  int job;
  pthread_mutex_lock(&m->lock);
  while (!m->posted)
    pthread_cond_wait(&m->posted_cv, &m->lock);
  pthread_mutex_unlock(&m->lock);
  pthread_mutex_lock(&m->lock);
  job = m->job;
  m->posted = 0;
  m->result = 2 * job;
  m->done = 1;
  pthread_cond_signal(&m->done_cv);
  pthread_mutex_unlock(&m->lock);
  return 0;
}

static void post_job(struct mailbox *m, int job)
{
  pthread_mutex_lock(&m->lock);
  m->job = job;
  m->posted = 1;
  pthread_cond_signal(&m->posted_cv);
  pthread_mutex_unlock(&m->lock);
}

static int wait_result(struct mailbox *m)
{
  int r;
  pthread_mutex_lock(&m->lock);
  while (!m->done)
    pthread_cond_wait(&m->done_cv, &m->lock);
  r = m->result;
  pthread_mutex_unlock(&m->lock);
  return r;
}

void *client(void *arg)
{
  struct mailbox *m = arg;
  post_job(m, 21);
  answer = wait_result(m);
  return 0;
}

int main(void)
{
  pthread_t e, c;
  pthread_mutex_init(&mbox.lock, 0);
  pthread_cond_init(&mbox.posted_cv, 0);
  pthread_cond_init(&mbox.done_cv, 0);
  pthread_create(&e, 0, executor, &mbox);
  pthread_create(&c, 0, client, &mbox);
  pthread_join(e, 0);
  pthread_join(c, 0);
  return 0;
}
