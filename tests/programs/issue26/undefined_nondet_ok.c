// seqloc-expect: no-failure
// seqloc-args: --undefined-functions nondet
// The twin of undefined_nondet_fail.c with the test inside the lock: whatever
// `read_sensor` returns, at most one worker takes the last unit of the budget.
#include <assert.h>
#include <pthread.h>
int read_sensor(int channel);
int budget = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg)
{
  int v = read_sensor(*(int *)arg);
  if (v > 10) {
    pthread_mutex_lock(&m);
    if (budget > 0) {
      budget = budget - 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void)
{
  pthread_t t1, t2;
  int c1 = 1, c2 = 2;
  pthread_create(&t1, 0, worker, &c1);
  pthread_create(&t2, 0, worker, &c2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(budget >= 0);
  return 0;
}
