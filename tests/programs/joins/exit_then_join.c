/* Fails at line 21: the worker leaves through pthread_exit before its second step, so
 * after the join stage is 1. The join returns once pthread_exit has ended the worker. */
#include <pthread.h>
#include <assert.h>

int stage = 0;

void *worker(void *arg)
{
  stage = 1;
  pthread_exit(0);
  stage = 2;
  return 0;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(stage == 2);
  return 0;
}
