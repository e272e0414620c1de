// seqloc-expect: failure 20
// A timed wait whose caller takes a 0 result as "signalled": POSIX lets the wait return 0
// without any signal (a spurious wake-up), so the consumer can run on before the producer
// set `ready`. The test of the result (line 20) must be a test of the predicate, in a
// loop.
#include <pthread.h>
#include <assert.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *consumer(void *arg) {
  struct timespec deadline = {100000, 0};
  int rc;
  (void)arg;
  pthread_mutex_lock(&m);
  rc = pthread_cond_timedwait(&c, &m, &deadline);
  if (rc == 0)
    assert(ready == 1);
  pthread_mutex_unlock(&m);
  return 0;
}

void *producer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, consumer, 0);
  pthread_create(&b, 0, producer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
