// seqloc-expect: refused mtx_timedlock
// C11 threads: a timed lock waits until a deadline on the clock, which seqloc does not
// model (neither does it model pthread_mutex_timedlock): refused by name.
#include <threads.h>
#include <time.h>
#include <assert.h>

mtx_t m;
int counter;

int worker(void *arg)
{
  struct timespec deadline = {0, 0};
  (void)arg;
  if (mtx_timedlock(&m, &deadline) == thrd_success) {
    counter++;
    mtx_unlock(&m);
  }
  return 0;
}

int main(void)
{
  thrd_t t;
  mtx_init(&m, mtx_timed);
  thrd_create(&t, worker, NULL);
  thrd_join(t, NULL);
  assert(counter <= 1);
  return 0;
}
