// seqloc-expect: failure 16
// Two workers count hits under a spinlock; the second worker's helper forgets the lock
// and its read-modify-write can be lost.
#include <pthread.h>
#include <assert.h>
pthread_spinlock_t lock;
int hits;
void *careful(void *arg) {
  pthread_spin_lock(&lock);
  int seen = hits;
  hits = seen + 1;
  pthread_spin_unlock(&lock);
  return 0;
}
void *hasty(void *arg) {
  int seen = hits;
  hits = seen + 1;
  return 0;
}
int main(void) {
  pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
  pthread_t a, b;
  pthread_create(&a, 0, careful, 0);
  pthread_create(&b, 0, hasty, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2);
  pthread_spin_destroy(&lock);
  return 0;
}
