// Each worker adds its share to a locked total; the correct twin
// (`+ 5`): every interleaving passes.
#include <assert.h>
#include <pthread.h>

int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
  int id = *(int *)arg;
  int share = id * 10 + 5;
  pthread_mutex_lock(&m);
  total = total + share;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int ids[2] = {0, 1};
  pthread_create(&t[0], 0, worker, &ids[0]);
  pthread_create(&t[1], 0, worker, &ids[1]);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  int seen = total;
  assert(seen == 20);
  return 0;
}
