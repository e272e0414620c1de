/*
 * A mailbox: the reader waits under `box_lock` until a letter is posted; the postman
 * raises `posted` and signals without taking the lock. The reader can test `posted`
 * (still 0), be preempted before it waits, and miss the signal: it then waits for ever.
 *
 * Expected verdict: false (no-deadlock)
 * Faulty line: 24 (the write of `posted` without `box_lock`; line 23 should lock and
 *   line 26 unlock, as the reader does).
 */
#include <pthread.h>

pthread_mutex_t box_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t box_cv = PTHREAD_COND_INITIALIZER;
int posted = 0;
int letter = 0;

void *postman(void *arg)
{
  (void)arg;
  letter = 7;
  /* the lock belongs around the next three lines */


  posted = 1;
  pthread_cond_signal(&box_cv);

  return 0;
}

void *reader(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&box_lock);
  while (!posted)
    pthread_cond_wait(&box_cv, &box_lock);
  pthread_mutex_unlock(&box_lock);
  return 0;
}

int main(void)
{
  pthread_t p, r;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&p, 0, postman, 0);
  pthread_join(r, 0);
  pthread_join(p, 0);
  return 0;
}
