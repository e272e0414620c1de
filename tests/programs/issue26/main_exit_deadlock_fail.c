// seqloc-expect: deadlock 17
// main leaves with pthread_exit, so the workers go on without it (a return from main
// would end the process). The sender returns with the mutex still held: when it runs
// first, the receiver blocks for ever on the mutex.
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sent, received;
void *receiver(void *arg) {
  pthread_mutex_lock(&m);
  received = sent;
  pthread_mutex_unlock(&m);
  return 0;
}
void *sender(void *arg) {
  pthread_mutex_lock(&m);
  sent = 1;
  return 0;
}
int main(void) {
  pthread_t r, s;
  pthread_create(&r, 0, receiver, 0);
  pthread_create(&s, 0, sender, 0);
  pthread_exit(0);
}
