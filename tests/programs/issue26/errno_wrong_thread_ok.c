// seqloc-expect: no-failure
// The twin of errno_wrong_thread_fail.c: main reads the reason the worker recorded
// from its own errno (EAGAIN from the failed sem_trywait), and main's errno, which no
// call of main's changed, is still 0; a worker's write of its errno is its own.
#include <pthread.h>
#include <semaphore.h>
#include <errno.h>
#include <assert.h>

sem_t slots;
int failed;
int reason;

void *worker(void *arg) {
  (void)arg;
  if (sem_trywait(&slots) != 0) {
    failed = 1;
    reason = errno;
    errno = 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  errno = 5;
  sem_init(&slots, 0, 1);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(errno == 5);
  if (failed) {
    int why = reason;
    assert(why == EAGAIN);
  }
  return 0;
}
