// seqloc-expect: failure 21
// A 32-byte struct is published by one assignment and read by another, with no lock.
// gcc copies it with several moves, so the reader can see the first half of the new
// position and the second half of the old one (a torn read). The fault: the writer's
// copy at line 21 needs the mutex the reader would take too.
#include <pthread.h>
#include <assert.h>

struct position {
  long x;
  long y;
  long checksum_x;
  long checksum_y;
};

struct position current = {0, 0, 0, 0};

void *mover(void *arg) {
  (void)arg;
  struct position next = {5, 7, 5, 7};
  current = next;
  return 0;
}

void *observer(void *arg) {
  (void)arg;
  struct position seen = current;
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
