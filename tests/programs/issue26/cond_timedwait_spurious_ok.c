// seqloc-expect: no-failure
// The twin of cond_timedwait_spurious_fail.c: the consumer waits in a loop on the
// predicate, so neither a time-out nor a spurious wake-up makes it run on without
// `ready` (it gives up on a time-out).
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
  rc = 0;
  while (!ready && rc == 0)
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
