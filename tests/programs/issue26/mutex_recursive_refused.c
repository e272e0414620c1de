// seqloc-expect: refused pthread_mutexattr_settype
// A recursive mutex locked twice by its owner runs natively and the assertion holds; the
// sequentialization drops mutex attributes, so it would report a deadlock: refused.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m;
int depth;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  depth++;
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &attr);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(depth == 1);
  return 0;
}
