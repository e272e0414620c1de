// seqloc-expect: failure 33
// Two workers each try to take the one free slot with sem_trywait; the one that finds
// none records the failure and its errno. main then reports the reason by reading
// `errno` itself, but errno is per thread: main's own is still 0, not the worker's
// EAGAIN. The fix is to read the reason the worker recorded (errno_wrong_thread_ok.c).
// Natively it fails every run (one of the workers always finds the slot taken).
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
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  sem_init(&slots, 0, 1);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (failed) {
    int why = errno;
    assert(why == EAGAIN);
  }
  return 0;
}
