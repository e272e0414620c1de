// seqloc-expect: failure 16
// One waiter, one signaller: no other thread can take the state between the signal and the
// wake-up, so the only way to fail is a spurious wake-up, which POSIX allows
// (pthread_cond_wait may return without a signal). The `if` at line 16 must be a `while`
// (CERT CON36-C). seqloc models a spurious wake-up at every wait no loop re-tests, so it
// finds the failure and names the `if`.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *consumer(void *arg) {
  int seen;
  (void)arg;
  pthread_mutex_lock(&m);
  if (!ready)
    pthread_cond_wait(&c, &m);
  seen = ready;
  pthread_mutex_unlock(&m);
  assert(seen == 1);
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
