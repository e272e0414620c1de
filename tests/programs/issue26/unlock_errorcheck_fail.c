// seqloc-expect: failure 25
// `unlock_errorcheck_ok.c` with the stray thread's test inverted (line 25): its unlock of
// the error-checking mutex, which it never locked, answers EPERM whoever holds it, and it
// takes that for success. The failure is the assertion; the unlock property (about the
// default type only) is not what fails: EPERM is POSIX's defined answer here. With ESBMC
// 8.4 and CBMC 6.6 (no `pthread_mutexattr_settype`) the built-in checker searches it.
#include <pthread.h>
#include <errno.h>
#include <assert.h>

pthread_mutex_t gate;
int opened;

void *closer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&gate);
  opened = 0;
  pthread_mutex_unlock(&gate);
  return 0;
}

void *stray(void *arg) {
  (void)arg;
  int r = pthread_mutex_unlock(&gate);
  if (r != 0)
    opened = 1;
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_t t1, t2;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&gate, &a);
  pthread_create(&t1, 0, closer, 0);
  pthread_create(&t2, 0, stray, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(opened == 0);
  return 0;
}
