// seqloc-expect: failure 16
// seqloc-args: --undefined-functions nondet
// ESBMC's and CBMC's convention for a function nobody defines: `read_sensor` returns
// any int and does nothing else. Both workers test the shared budget and then take
// from it, but the test and the update are separate steps outside the lock: both may
// pass the test with a budget of 1 and the budget ends below zero.
#include <assert.h>
#include <pthread.h>
int read_sensor(int channel);
int budget = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg)
{
  int v = read_sensor(*(int *)arg);
  if (v > 10) {
    if (budget > 0) {
      pthread_mutex_lock(&m);
      budget = budget - 1;
      pthread_mutex_unlock(&m);
    }
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
