/* Correct: two workers add to a counter under one mutex. A schedule in which one worker
 * runs its critical section while the other holds the mutex is no execution of this
 * program, so seqloc must refuse it rather than localize the lost update it shows. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg)
{
  int t;
  pthread_mutex_lock(&m);
  t = count;
  count = t + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2);
  return 0;
}
