/* expect: repair */
/* faulty: 22
 * main hands one item to the taker through `items` under a mutex and a
 * condition variable. The taker should wait while there is nothing to
 * take, but its test is inverted (line 22: `items != 0`): when main has
 * already put the item, the taker waits for ever and main's join with it;
 * when the taker comes first it takes nothing. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t box = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
int items = 0;
int got = 0;

void *taker(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&box);
  while (items != 0)
    pthread_cond_wait(&filled, &box);
  got = items;
  items = 0;
  pthread_mutex_unlock(&box);
  return 0;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, taker, 0);
  pthread_mutex_lock(&box);
  items = 1;
  pthread_cond_signal(&filled);
  pthread_mutex_unlock(&box);
  pthread_join(t, 0);
  assert(got == 1);
  return 0;
}
