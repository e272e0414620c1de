// seqloc-expect: no-failure
// The lookup leaves its read lock before it takes the write lock, and checks again
// under the write lock.
#include <pthread.h>
#include <assert.h>
pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int table[4];
int inserted;
void *insert(void *arg) {
  long key = (long)arg;
  pthread_rwlock_rdlock(&lock);
  int present = table[key];
  pthread_rwlock_unlock(&lock);
  if (!present) {
    pthread_rwlock_wrlock(&lock);
    if (table[key] == 0) {
      table[key] = 1;
      inserted++;
    }
    pthread_rwlock_unlock(&lock);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, insert, (void *)1L);
  pthread_create(&b, 0, insert, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(inserted == 1);
  return 0;
}
