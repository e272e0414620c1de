// seqloc-expect: failure 19
// Thread-specific data (pthread_key_create/setspecific/getspecific): each worker keeps a
// pointer to its own slot under a key, but writes through a shared pointer `current`
// instead of the one the key gives it (line 19). Another worker can change `current` in
// between, and the write lands in the other worker's slot.
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
  *current = id + 1;
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
