// seqloc-expect: no-failure
// The twin of thread_local_flag_fail.c, with thread-local storage used as meant: each
// worker counts its own calls in a `__thread` counter (initialized to 10 in every thread),
// so neither worker sees the other's increments, and `main`'s copy stays 10. Were the
// counter shared, the workers' unlocked read-modify-writes would race and the sums differ.
#include <pthread.h>
#include <assert.h>

__thread int calls = 10;
int total = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void count(void) { calls = calls + 1; }

void *worker(void *arg) {
  int *mine = arg;
  count();
  count();
  *mine = calls;
  pthread_mutex_lock(&m);
  total = total + calls;
  pthread_mutex_unlock(&m);
  assert(calls == 12);
  return 0;
}

int main(void) {
  pthread_t a, b;
  int got[2];
  pthread_create(&a, 0, worker, &got[0]);
  pthread_create(&b, 0, worker, &got[1]);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 24 && got[0] == 12 && got[1] == 12);
  assert(calls == 10);
  return 0;
}
