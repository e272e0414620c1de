/* The drainer copies `closing` once, before its wait loop, and the loop tests
 * the copy: woken by the close, it still sees the old value and waits again. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int closing = 0;
int queued = 0;

void *drainer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  int closed = closing;
  while (queued == 0 && !closed)
    pthread_cond_wait(&cv, &m);
  if (queued > 0)
    queued--;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, drainer, 0);
  pthread_mutex_lock(&m);
  closing = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
