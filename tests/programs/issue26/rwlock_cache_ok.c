// seqloc-expect: no-failure
// A configuration cache under a read-write lock: readers share it (one of them only
// when the lock is free at once, by tryrdlock), refreshers hold it exclusively (one by
// trywrlock, retrying) while they update both fields.
#include <pthread.h>
#include <assert.h>
pthread_rwlock_t lock;
int version;
int limit = 10;
void *refresh(void *arg) {
  pthread_rwlock_wrlock(&lock);
  int v = version;
  limit = 20;
  version = v + 1;
  pthread_rwlock_unlock(&lock);
  return 0;
}
void *refresh_eager(void *arg) {
  while (pthread_rwlock_trywrlock(&lock) != 0) {
  }
  int v = version;
  limit = 20;
  version = v + 1;
  pthread_rwlock_unlock(&lock);
  return 0;
}
void *reader(void *arg) {
  pthread_rwlock_rdlock(&lock);
  int l = limit, v = version;
  if (pthread_rwlock_tryrdlock(&lock) == 0) {
    assert(version == v);
    pthread_rwlock_unlock(&lock);
  }
  pthread_rwlock_unlock(&lock);
  assert(v == 0 || l == 20);
  return 0;
}
int main(void) {
  pthread_rwlock_init(&lock, 0);
  pthread_t a, b, r;
  pthread_create(&a, 0, refresh, 0);
  pthread_create(&b, 0, refresh_eager, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(r, 0);
  assert(version == 2);
  pthread_rwlock_destroy(&lock);
  return 0;
}
