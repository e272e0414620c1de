#include <pthread.h>
#include <assert.h>
_Thread_local int mine = 0;
void *w(void *a) { mine = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  assert(mine == 1);
  return 0;
}
