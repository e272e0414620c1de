/* A dispatcher hands each clerk a ticket through one shared slot and waits on a
 * semaphore until the clerk has taken it. The clerk posts that it has taken the
 * ticket before it actually reads the slot. */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

int slot;
int served[2];
sem_t taken;

void *clerk(void *arg)
{
  int desk = *(int *)arg;
  sem_post(&taken);
  int ticket = slot;
  served[desk] = ticket;
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int desks[2] = {0, 1};
  sem_init(&taken, 0, 0);
  for (int i = 0; i < 2; i++) {
    slot = 100 + i;
    pthread_create(&t[i], 0, clerk, &desks[i]);
    sem_wait(&taken);
  }
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(served[0] == 100 && served[1] == 101);
  return 0;
}
