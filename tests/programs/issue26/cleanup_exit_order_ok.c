// seqloc-expect: no-failure
// pthread_exit runs the cleanup handlers still pushed, newest first (POSIX), and a
// handler popped with 0 does not run: the log holds 3, then 1.
#include <pthread.h>
#include <assert.h>
int log_[3];
int n;
int one = 1, two = 2, three = 3;
void note(void *a) {
  log_[n] = *(int *)a;
  n = n + 1;
}
void *worker(void *arg) {
  pthread_cleanup_push(note, &one);
  pthread_cleanup_push(note, &two);
  pthread_cleanup_pop(0);
  pthread_cleanup_push(note, &three);
  pthread_exit(0);
  pthread_cleanup_pop(0);
  pthread_cleanup_pop(0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(n == 2 && log_[0] == 3 && log_[1] == 1);
  return 0;
}
