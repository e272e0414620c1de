// seqloc-expect: no-failure
// The twin of struct_copy_torn_fail.c: both copies of the struct are made under one
// mutex, so the observer sees the whole old position or the whole new one.
#include <pthread.h>
#include <assert.h>

struct position {
  long x;
  long y;
  long checksum_x;
  long checksum_y;
};

struct position current = {0, 0, 0, 0};
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *mover(void *arg) {
  (void)arg;
  struct position next = {5, 7, 5, 7};
  pthread_mutex_lock(&lock);
  current = next;
  pthread_mutex_unlock(&lock);
  return 0;
}

void *observer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  struct position seen = current;
  pthread_mutex_unlock(&lock);
  assert(seen.x == seen.checksum_x && seen.y == seen.checksum_y);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, mover, 0);
  pthread_create(&b, 0, observer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
