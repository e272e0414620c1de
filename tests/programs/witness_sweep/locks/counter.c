/* The same name as races/counter.c, a different program: two threads take two
 * locks in opposite orders and deadlock. Expected: false (no-deadlock). */
#include <pthread.h>

pthread_mutex_t first, second;

void *forward(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&first);
  pthread_mutex_lock(&second);
  pthread_mutex_unlock(&second);
  pthread_mutex_unlock(&first);
  return 0;
}

void *backward(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&second);
  pthread_mutex_lock(&first);
  pthread_mutex_unlock(&first);
  pthread_mutex_unlock(&second);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_mutex_init(&first, 0);
  pthread_mutex_init(&second, 0);
  pthread_create(&a, 0, forward, 0);
  pthread_create(&b, 0, backward, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
