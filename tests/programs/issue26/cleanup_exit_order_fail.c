// seqloc-expect: failure 25
// pthread_exit runs the cleanup handlers still pushed, newest first (POSIX): the log holds
// 2 then 1, and main expects the order they were pushed in.
#include <pthread.h>
#include <assert.h>
int log_[2];
int n;
int one = 1, two = 2;
void note(void *a) {
  log_[n] = *(int *)a;
  n = n + 1;
}
void *worker(void *arg) {
  pthread_cleanup_push(note, &one);
  pthread_cleanup_push(note, &two);
  pthread_exit(0);
  pthread_cleanup_pop(0);
  pthread_cleanup_pop(0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(n == 2 && log_[0] == 1);
  return 0;
}
