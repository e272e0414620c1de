// seqloc-expect: failure 11
// The worker takes a join of itself for a success: the join answers EDEADLK at once (it
// does not wait for ever, so this is no deadlock), `done` stays 0 and main's check fails.
#include <pthread.h>
#include <errno.h>
#include <assert.h>
int done;
void *worker(void *arg) {
  int r = pthread_join(pthread_self(), 0);
  /* the fault: a self-join never succeeds */
  if (r == 0)
    done = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(done == 1);
  return 0;
}
