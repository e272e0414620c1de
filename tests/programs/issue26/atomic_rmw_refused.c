// seqloc-expect: refused _Atomic
// `counter++` on a C11 _Atomic object is one indivisible read-modify-write (gcc emits
// `lock add`): the assertion holds natively. seqloc does not model it as one step yet,
// and refuses it rather than report a lost update that cannot happen.
#include <pthread.h>
#include <assert.h>
_Atomic int counter;
void *worker(void *arg) {
  counter++;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
