/* A notifier signals before it changes the state its waiter tests, outside the mutex:
 * when the waiter starts waiting after the signal, nobody wakes it (a deadlock). The
 * fault is the early signal at line 24. The notifier's first block shows no step of its
 * own (a signal is the model's statements), so where it was preempted is not known from
 * the trace: no line may be named as the place of that preemption. */
#include <pthread.h>

int go;
int parcel;
pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t moved = PTHREAD_COND_INITIALIZER;

void *receiver(void *arg)
{
  pthread_mutex_lock(&gate);
  while (!go)
    pthread_cond_wait(&moved, &gate);
  pthread_mutex_unlock(&gate);
  return arg;
}

void *sender(void *arg)
{
  pthread_cond_signal(&moved);
  pthread_mutex_lock(&gate);
  parcel = 5;
  go = 1;
  pthread_mutex_unlock(&gate);
  return arg;
}

int main(void)
{
  pthread_t r, s;
  pthread_create(&r, 0, receiver, 0);
  pthread_create(&s, 0, sender, 0);
  pthread_join(r, 0);
  pthread_join(s, 0);
  return 0;
}
