/* A worker starts a helper, and both add to a counter without the lock: the root-cause
   search refuses runs whose threads create threads (their numbers depend on the order). */
#include <pthread.h>
#include <assert.h>

int hits = 0;

void *helper(void *arg)
{
  (void)arg;
  hits = hits + 1;
  return 0;
}

void *worker(void *arg)
{
  pthread_t h;
  (void)arg;
  pthread_create(&h, 0, helper, 0);
  hits = hits + 1;
  pthread_join(h, 0);
  return 0;
}

int main(void)
{
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  pthread_join(w, 0);
  assert(hits == 2);
  return 0;
}
