// seqloc-expect: failure 19
// An error-checking mutex: `bump` reports a failure when it cannot take the lock. The
// worker calls it while it still holds the lock itself, so the second lock answers
// EDEADLK (instead of blocking for ever) and the bump is refused.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m;
int count;
int bump(void) {
  if (pthread_mutex_lock(&m) != 0)
    return -1;
  count++;
  pthread_mutex_unlock(&m);
  return 0;
}
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int seen = count;
  int r = bump();
  pthread_mutex_unlock(&m);
  assert(r == 0 && seen >= 0);
  return 0;
}
int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &attr);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
