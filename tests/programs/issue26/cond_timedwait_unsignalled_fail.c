// seqloc-expect: failure 22
// A waiter gives a flag a deadline, but tests it once with `if` before waiting: a wait
// that returns 0 is taken as "set", and POSIX lets a timed wait return 0 without a signal
// (a spurious wake-up), so the assertion can fail. The test must be a loop (line 22).
#include <pthread.h>
#include <assert.h>
#include <errno.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, timed_out;

void *waiter(void *arg)
{
  struct timespec deadline;
  (void)arg;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 1;
  pthread_mutex_lock(&m);
  int rc = 0;
  if (!ready)
    rc = pthread_cond_timedwait(&c, &m, &deadline);
  if (rc == ETIMEDOUT)
    timed_out = 1;
  else
    assert(ready);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(int argc, char **argv)
{
  pthread_t t;
  (void)argv;
  pthread_create(&t, 0, waiter, 0);
  if (argc > 1) {
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
  }
  pthread_join(t, 0);
  return 0;
}
