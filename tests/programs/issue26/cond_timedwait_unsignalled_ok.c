// seqloc-expect: no-failure
// A waiter gives a flag that may never be set a deadline: `pthread_cond_timedwait` returns
// ETIMEDOUT when no signal comes, so the run ends either way — no deadlock, and the
// waiter looks at the flag only when it was signalled.
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
  while (!ready && rc == 0)
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
