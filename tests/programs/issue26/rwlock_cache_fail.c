// seqloc-expect: failure 14
// A configuration cache under a read-write lock: readers share it, the refresher must
// hold it exclusively while it updates both fields. Two refreshers take only the read
// lock, so their read-modify-writes of `version` overlap and one is lost.
#include <pthread.h>
#include <assert.h>
pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int version;
int limit = 10;
void *refresh(void *arg) {
  pthread_rwlock_rdlock(&lock);
  int v = version;
  limit = 20;
  version = v + 1;
  pthread_rwlock_unlock(&lock);
  return 0;
}
void *reader(void *arg) {
  pthread_rwlock_rdlock(&lock);
  int l = limit, v = version;
  pthread_rwlock_unlock(&lock);
  assert(v == 0 || l == 20);
  return 0;
}
int main(void) {
  pthread_t a, b, r;
  pthread_create(&a, 0, refresh, 0);
  pthread_create(&b, 0, refresh, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(r, 0);
  assert(version == 2);
  return 0;
}
