/*
 * Two workers each take one of the jobs counted by `jobs_left`; the last one to finish
 * raises `all_done`. The count starts at 3 for 2 workers, so nobody is ever last.
 * Faulty line: 13 (the start value of `jobs_left`; 2 is right). Every interleaving
 * fails: no order of the threads is the cause, the start value is.
 */
#include <pthread.h>
#include <assert.h>

#define WORKERS 2

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int jobs_left = 3;
int all_done;

void *worker(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&lock);
  jobs_left = jobs_left - 1;
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void)
{
  pthread_t t[WORKERS];
  int i;
  for (i = 0; i < WORKERS; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (i = 0; i < WORKERS; i++)
    pthread_join(t[i], 0);
  if (jobs_left == 0)
    all_done = 1;
  assert(all_done);
  return 0;
}
