// seqloc-expect: no-failure
// Thread-specific data (pthread_key_create/setspecific/getspecific): each worker keeps a
// pointer to its own slot under a key and writes through the pointer the key gives it:
// the twin of thread_specific_fail.c. The value a key holds is per thread, so another
// worker setting it for itself changes nothing here.
#include <pthread.h>
#include <assert.h>

pthread_key_t key;
int slots[2];
int ids[2] = {0, 1};
int *current;

void *worker(void *arg) {
  int id = *(int *)arg;
  pthread_setspecific(key, &slots[id]);
  current = &slots[id];
  int *mine = pthread_getspecific(key);
  *mine = id + 1;
  assert(*mine == id + 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_key_create(&key, 0);
  pthread_create(&a, 0, worker, &ids[0]);
  pthread_create(&b, 0, worker, &ids[1]);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
