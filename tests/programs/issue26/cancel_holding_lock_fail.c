// seqloc-expect: deadlock 11
// main cancels the worker, which acts on the request at pthread_testcancel while it holds
// the mutex: with no cleanup handler to release it, main then blocks on the mutex for
// ever.
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int progress;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  progress = 1;
  pthread_testcancel();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
