/*
 * seeds/job_mailbox_test_outside_lock_bad.c -- lost signal. A client posts one
 * job to an executor through a mailbox (a mutex, two condition variables)
 * and waits for the result; the executor waits for the job, computes the
 * result and signals it back.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (lost wakeup)
 * Faulty lines: 42, 43. The executor tests "posted" (L42) before it
 *   takes the mailbox mutex (L43), and with "if" rather than a loop; the
 *   client can post and signal between the test and the wait, and the
 *   executor then waits for a signal already sent. The test belongs under
 *   the mutex, in a "while" loop around pthread_cond_wait.
 *
 * Deadlocking interleaving (3 context switches):
 *   main: L91,L92 create executor E and client C; L93 join(E) blocks
 *   E:    L42 reads posted = 0                                      [switch 1]
 *   C:    L80 post_job: L61 posted = 1, L62 signal (no waiter);
 *         L81 wait_result: L71 waits for done                     [switch 2]
 *   E:    L43 locks, L44 waits for posted_cv                    [switch 3]
 *   main waits for E, E for a signal already sent, C for the result.
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
  if (!m->posted) {
    pthread_mutex_lock(&m->lock);
    pthread_cond_wait(&m->posted_cv, &m->lock);
    pthread_mutex_unlock(&m->lock);
  }
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
