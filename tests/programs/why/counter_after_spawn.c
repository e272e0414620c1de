// main and the worker both add to `hits` without a lock (lines 11 and 18): a lost
// update, not a use before initialisation, although main's add comes after it started
// the worker. Faulty lines: 11, 18.
#include <pthread.h>
#include <assert.h>

int hits;

void *worker(void *arg) {
  (void)arg;
  hits = hits + 1;
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  hits = hits + 1;
  pthread_join(w, 0);
  assert(hits == 2);
  return 0;
}
