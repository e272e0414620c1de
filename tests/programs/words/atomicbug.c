#include <pthread.h>
#include <assert.h>
int c = 0;
int load(void) { int v; __atomic_load(&c, &v, __ATOMIC_SEQ_CST); return v; }
void store(int v) { __atomic_store(&c, &v, __ATOMIC_SEQ_CST); }
void *w(void *a) { int t = load(); store(t + 1); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(c == 2);
  return 0;
}
