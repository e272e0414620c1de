// seqloc-expect: no-failure
// An error-checking mutex: the worker reads under the lock and calls `bump` after its
// unlock; main's unlock of a mutex it does not hold answers EPERM and changes nothing,
// and a relock by the owner answers EDEADLK.
#include <pthread.h>
#include <errno.h>
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
  pthread_mutex_unlock(&m);
  int r = bump();
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
  assert(pthread_mutex_unlock(&m) == EPERM);
  pthread_join(t, 0);
  pthread_mutex_lock(&m);
  assert(pthread_mutex_lock(&m) == EDEADLK);
  pthread_mutex_unlock(&m);
  assert(count == 1);
  return 0;
}
