// seqloc-expect: refused destructor
// A key destructor that counts the release in a global without a mutex: the two workers'
// destructors run at their threads' exits, concurrently, and one increment can overwrite
// the other, so `released` may end at 1. seqloc checks destructors as one step at the
// thread's exit, which would hide exactly that interleaving (it once answered "no failure
// in any execution" here), so a destructor that touches more than its own value's memory
// is refused by name.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

pthread_key_t buffer_key;
int released = 0;

static void release(void *p) {
  int *buf = p;
  int seen;
  *buf = 0;
  seen = released;
  released = seen + 1;
}

void *worker(void *arg) {
  (void)arg;
  int *buf = malloc(sizeof(int));
  if (buf == 0)
    return 0;
  *buf = 1;
  pthread_setspecific(buffer_key, buf);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_key_create(&buffer_key, release);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(released == 2);
  return 0;
}
