// seqloc-expect: failure 28
// A poller sleeps with nanosleep between looks at a flag; the publisher raises the flag
// before it writes the result (and sleeps in between), so the poller can see the flag and
// read the old result. The fix is to write the result first (or to publish both under a
// mutex, as nanosleep_poll_ok.c does). Natively it fails nearly every run: the poller
// wakes after 1 ms, while the publisher sleeps 20 ms between the two writes.
#include <pthread.h>
#include <time.h>
#include <assert.h>

int ready;
int result;

void *poller(void *arg) {
  (void)arg;
  struct timespec ts = {0, 1000000};
  for (int i = 0; i < 3 && !ready; i++)
    nanosleep(&ts, 0);
  if (ready)
    assert(result == 42);
  return 0;
}

int main(void) {
  pthread_t t;
  struct timespec pause = {0, 20000000};
  pthread_create(&t, 0, poller, 0);
  ready = 1;
  nanosleep(&pause, 0);
  result = 42;
  pthread_join(t, 0);
  return 0;
}
