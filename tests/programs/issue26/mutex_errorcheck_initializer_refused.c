// seqloc-expect: refused PTHREAD_MUTEX_INITIALIZER
// glibc's static initializer of an error-checking mutex: its second lock returns EDEADLK
// instead of blocking. Only the default kind is modelled, so this is refused.
#define _GNU_SOURCE
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
int main(void) {
  pthread_mutex_lock(&m);
  int r = pthread_mutex_lock(&m);
  assert(r != 0);
  pthread_mutex_unlock(&m);
  return 0;
}
