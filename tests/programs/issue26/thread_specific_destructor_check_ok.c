// seqloc-expect: no-failure
// The twin of thread_specific_destructor_check_fail.c: the worker keeps 41, which the
// destructor accepts. `main`'s own value (16) is never handed to it: `main` returns,
// which ends the process without running destructors.
#include <pthread.h>
#include <assert.h>

pthread_key_t key;

static void check_value(void *v) {
  long value = (long)v;
  assert(value != 42);
}

static void *worker(void *arg) {
  long mine = (long)arg;
  pthread_setspecific(key, (void *)mine);
  return 0;
}

int main(void) {
  long marker = 41;
  pthread_t t;
  pthread_key_create(&key, check_value);
  pthread_create(&t, 0, worker, (void *)marker);
  pthread_setspecific(key, (void *)16);
  pthread_join(t, 0);
  return 0;
}
