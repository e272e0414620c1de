/* Two printers take jobs off one spool. Each claims the spool with a trylock
 * and never looks at its result, so a printer that lost the race goes on
 * anyway and, at the end, unlocks the spool the other printer still holds. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t spool_lock = PTHREAD_MUTEX_INITIALIZER;
int next_job = 0;
int printed[2];

void *printer(void *arg)
{
  int me = *(int *)arg;
  pthread_mutex_trylock(&spool_lock);
  int job = next_job;
  next_job = job + 1;
  printed[me] = job;
  pthread_mutex_unlock(&spool_lock);
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, printer, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(printed[0] != printed[1]);
  return 0;
}
