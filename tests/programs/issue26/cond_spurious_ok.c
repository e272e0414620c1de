// seqloc-expect: no-failure
// The fix of cond_spurious_fail.c: the predicate is tested again after every wake-up,
// so a spurious one only waits again.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *consumer(void *arg) {
  int seen;
  (void)arg;
  pthread_mutex_lock(&m);
  while (!ready)
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
