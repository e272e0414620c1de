/* The counter of races/counter.c under a lock: no failure, so no witness.
 * Expected: true (unreach-call). */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int count = 0;

void *add(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2);
  return 0;
}
