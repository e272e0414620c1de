/* A store through a pointer made from an integer: the mutex attribute 2 and the thread
 * argument (void *)-1 name no object. The fuzzer's mutant of a benchmark made the bounded
 * search index its object table with such an id (a panic); the store points into no object
 * and is lost, as C leaves it undefined. */
#include <pthread.h>
pthread_mutex_t m;
int done;
void *worker(void *arg) {
  int *p = arg;
  *p = 1;
  pthread_mutex_lock(&m);
  done = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_init(&m, (pthread_mutexattr_t *)2);
  pthread_create(&t, 0, worker, (void *)-1);
  pthread_join(t, 0);
  return 0;
}
