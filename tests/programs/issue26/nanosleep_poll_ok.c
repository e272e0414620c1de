// seqloc-expect: no-failure
// The twin of nanosleep_poll_fail.c with the result and the flag published together
// under a mutex: whenever the poller sees the flag, the result is there. nanosleep
// answers 0 and leaves the remainder alone, clock_nanosleep on a relative request
// answers 0, and a request Linux refuses (tv_nsec of a whole second) answers -1 with
// errno EINVAL in the thread that asked.
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <assert.h>

int ready;
int result;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *poller(void *arg) {
  (void)arg;
  struct timespec ts = {0, 1000000};
  struct timespec rem = {7, 7};
  int seen = 0;
  for (int i = 0; i < 3 && !seen; i++) {
    pthread_mutex_lock(&m);
    seen = ready;
    if (seen)
      assert(result == 42);
    pthread_mutex_unlock(&m);
    int r = nanosleep(&ts, &rem);
    assert(r == 0 && rem.tv_sec == 7 && rem.tv_nsec == 7);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  struct timespec pause = {0, 2000000};
  struct timespec bad = {0, 1000000000};
  pthread_create(&t, 0, poller, 0);
  int r = clock_nanosleep(CLOCK_MONOTONIC, 0, &pause, 0);
  assert(r == 0);
  pthread_mutex_lock(&m);
  result = 42;
  ready = 1;
  pthread_mutex_unlock(&m);
  r = nanosleep(&bad, 0);
  assert(r == -1 && errno == EINVAL);
  pthread_join(t, 0);
  return 0;
}
