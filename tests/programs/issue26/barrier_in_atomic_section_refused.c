// seqloc-expect: refused pthread_barrier_wait
// A barrier wait inside an atomic section would block with every other thread shut out:
// refused by name rather than analysed.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
pthread_barrier_t b;
int arrived;
void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  arrived++;
  pthread_barrier_wait(&b);
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_barrier_init(&b, 0, 2);
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
