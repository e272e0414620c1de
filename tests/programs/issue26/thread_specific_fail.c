// seqloc-expect: failure 16
// Thread-specific data (pthread_key_create/setspecific/getspecific): each worker should
// keep a pointer to its own slot under a key, but it stores the pointer it reads back from
// a shared variable `current` (line 16), which another worker can have changed in between:
// the key then holds the other worker's slot.
#include <pthread.h>
#include <assert.h>

pthread_key_t key;
int slots[2];
int *current;

void *worker(void *arg) {
  int *mine = arg;
  current = mine;
  int *chosen = current;
  pthread_setspecific(key, chosen);
  int *got = pthread_getspecific(key);
  assert(got == mine);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_key_create(&key, 0);
  pthread_create(&a, 0, worker, &slots[0]);
  pthread_create(&b, 0, worker, &slots[1]);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
