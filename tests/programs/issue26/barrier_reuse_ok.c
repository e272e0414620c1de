// seqloc-expect: no-failure
// Two rounds of a reduction on one barrier, reused: each worker adds its share, the
// serial thread of the cycle (the one `pthread_barrier_wait` answers
// PTHREAD_BARRIER_SERIAL_THREAD) records the round's sum and resets it, and a second
// wait keeps the next round's adds after the reset.
#include <pthread.h>
#include <assert.h>
pthread_barrier_t step;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sum;
int results[2];
int serials;
void *worker(void *arg) {
  for (int r = 0; r < 2; r++) {
    pthread_mutex_lock(&m);
    sum += 1;
    pthread_mutex_unlock(&m);
    if (pthread_barrier_wait(&step) == PTHREAD_BARRIER_SERIAL_THREAD) {
      results[r] = sum;
      sum = 0;
      serials++;
    }
    pthread_barrier_wait(&step);
  }
  return 0;
}
int main(void) {
  pthread_barrier_init(&step, 0, 2);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(results[0] == 2 && results[1] == 2 && serials == 2);
  return 0;
}
