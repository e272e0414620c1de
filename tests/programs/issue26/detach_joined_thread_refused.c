// seqloc-expect: refused pthread_detach
// Detaching a thread main already joined: POSIX answers ESRCH (the thread is gone), and
// joining a detached thread answers EINVAL at once. seqloc models both calls as
// succeeding, so a program that does both is refused.
#include <pthread.h>
#include <errno.h>
#include <assert.h>
int done;
void *worker(void *arg) {
  done = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int r = pthread_detach(t);
  assert(r == ESRCH);
  return 0;
}
