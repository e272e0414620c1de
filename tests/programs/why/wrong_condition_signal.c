/* A one-space car park: a car waits on `space_cv` for a free space; a car that
 * leaves frees its space but signals `car_cv`, which nobody waits on, so the
 * waiting car sleeps for ever. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t lot = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t space_cv = PTHREAD_COND_INITIALIZER;
pthread_cond_t car_cv = PTHREAD_COND_INITIALIZER;
int spaces = 1;
int parked = 0;

void *car(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&lot);
  while (spaces == 0)
    pthread_cond_wait(&space_cv, &lot);
  spaces--;
  parked++;
  pthread_mutex_unlock(&lot);

  pthread_mutex_lock(&lot);
  spaces++;
  pthread_cond_signal(&car_cv);
  pthread_mutex_unlock(&lot);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, car, 0);
  pthread_create(&b, 0, car, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(parked == 2);
  return 0;
}
