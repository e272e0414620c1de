/* Correct: main reads the worker's result only after joining it. A schedule in which
 * main passes pthread_join while the worker has not finished (or not started) is no
 * execution of this program, so seqloc must refuse it rather than localize a failure. */
#include <pthread.h>
#include <assert.h>

int stage = 0;

void *worker(void *arg)
{
  stage = 1;
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
