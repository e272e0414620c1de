#include <pthread.h>
#include <assert.h>
int add(int k) { static int acc = 0; int t = acc; acc = t + k; return acc; }
void *w(void *a) { add(1); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(add(0) == 2);
  return 0;
}
