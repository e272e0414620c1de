// seqloc-expect: no-failure
// The worker detaches itself, and main does not join it: it waits for the result on a
// condition variable, in a loop, as a detached thread's user must.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int result;
void *worker(void *arg) {
  pthread_detach(pthread_self());
  pthread_mutex_lock(&m);
  result = 42;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  while (result == 0)
    pthread_cond_wait(&c, &m);
  assert(result == 42);
  pthread_mutex_unlock(&m);
  return 0;
}
