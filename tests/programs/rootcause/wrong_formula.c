/* root cause: none (the workers are serialized by a lock; the total is computed wrong in every order) */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total = 0;

void *worker(void *arg)
{
  int part = *(int *)arg;
  pthread_mutex_lock(&m);
  total = total + part * 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int x = 3, y = 4;
  pthread_create(&a, 0, worker, &x);
  pthread_create(&b, 0, worker, &y);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 7);
  return 0;
}
