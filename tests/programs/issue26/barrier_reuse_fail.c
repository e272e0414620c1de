// seqloc-expect: failure 19
// Two rounds of a reduction on one barrier, reused: each worker adds its share and the
// serial thread of the cycle records the round's sum and resets it. Without a second
// wait after the reset, the other worker's next add can come before the serial thread
// has read or reset the sum.
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
