// seqloc-expect: refused pthread_cleanup_push
// `finish` ends the thread with pthread_exit from inside a function called in the
// cleanup handler's scope: the handler would have to run from inside `finish`, which
// seqloc does not model. Refused by name.
#include <pthread.h>
int cleaned;
void clean(void *a) { cleaned = 1; }
void finish(void) { pthread_exit(0); }
void *worker(void *arg) {
  pthread_cleanup_push(clean, 0);
  finish();
  pthread_cleanup_pop(0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
