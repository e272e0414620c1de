// seqloc-expect: refused pthread_exit
// An init routine that may end its thread: glibc then puts the control back to "not
// started" and another caller runs the routine again, which is not modelled: refused.
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int inits;
int broken;
void setup(void) {
  inits++;
  if (broken)
    pthread_exit(0);
}
void *worker(void *arg) {
  pthread_once(&once, setup);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(inits == 1);
  return 0;
}
