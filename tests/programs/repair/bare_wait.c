/* expect: repair */
/* faulty: 32
 * The loader publishes the table and moves `phase` to 2 under the mutex,
 * then broadcasts. The reader waits on the condition variable without
 * looking at `phase` first (line 32): when the loader got there first the
 * broadcast is already gone and the reader waits for ever (and main with
 * it). The wait must be guarded by the predicate. */
#include <pthread.h>

pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t published = PTHREAD_COND_INITIALIZER;
int phase = 1;
int table[2];
int copy = 0;

void *loader(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&gate);
  table[0] = 7;
  table[1] = 9;
  phase = 2;
  pthread_cond_broadcast(&published);
  pthread_mutex_unlock(&gate);
  return 0;
}

void *reader(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&gate);
  pthread_cond_wait(&published, &gate);
  copy = table[0] + table[1];
  pthread_mutex_unlock(&gate);
  return 0;
}

int main(void)
{
  pthread_t l, r;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&l, 0, loader, 0);
  pthread_join(r, 0);
  pthread_join(l, 0);
  return 0;
}
