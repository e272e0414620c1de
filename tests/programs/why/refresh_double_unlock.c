/* Two refreshers update a cache under its lock. A large refresh gives the lock back a
 * second time on its way out (line 18), when no thread holds it any more: an unlock of a
 * free mutex, which POSIX leaves undefined for the default type and ESBMC and CBMC report
 * as "must hold lock upon unlock". */
#include <pthread.h>

pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
int entries;
int stale = 1;

void refresh(int n)
{
  pthread_mutex_lock(&cache_lock);
  entries = n;
  stale = 0;
  pthread_mutex_unlock(&cache_lock);
  if (n > 2)
    pthread_mutex_unlock(&cache_lock);
}

void *refresher(void *arg)
{
  refresh(*(int *)arg);
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  int small = 1, large = 3;
  pthread_create(&t1, 0, refresher, &small);
  pthread_create(&t2, 0, refresher, &large);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
