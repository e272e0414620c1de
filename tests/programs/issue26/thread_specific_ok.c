// seqloc-expect: no-failure
// The twin of thread_specific_fail.c: each worker stores its own pointer under the key.
// A key's value is per thread, so the other worker setting it for itself changes nothing
// here.
#include <pthread.h>
#include <assert.h>

pthread_key_t key;
int slots[2];

void *worker(void *arg) {
  int *mine = arg;
  pthread_setspecific(key, mine);
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
