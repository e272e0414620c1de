// seqloc-expect: failure 17
// A "run once" flag that was meant to be shared is declared `_Thread_local`: every worker
// sees its own copy still 0, so each one runs the initialization and `inits` ends at 2 in
// every execution. The fix is a plain global flag (or `pthread_once`); the line that
// reads the per-thread copy is where the wrong value decides.
#include <pthread.h>
#include <assert.h>

_Thread_local int initialized = 0;
int inits = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  int done = initialized;
  if (!done) {
    initialized = 1;
    inits = inits + 1;
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(inits == 1);
  return 0;
}
