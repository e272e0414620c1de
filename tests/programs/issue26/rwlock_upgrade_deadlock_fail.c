// seqloc-expect: deadlock 11
// A lookup that upgrades its read lock by taking the write lock while still holding
// the read lock: the write lock waits for every reader to leave, itself included.
#include <pthread.h>
pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int table[4];
void *insert(void *arg) {
  long key = (long)arg;
  pthread_rwlock_rdlock(&lock);
  if (table[key] == 0) {
    pthread_rwlock_wrlock(&lock);
    table[key] = 1;
  }
  pthread_rwlock_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, insert, (void *)1L);
  pthread_join(t, 0);
  return 0;
}
