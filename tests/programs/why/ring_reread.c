/* Two producers each reserve a slot of a ring under the lock and fill it in
 * after letting the lock go. The fill reads the shared head again instead of
 * the slot number it reserved. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
int head = 0;
int ring[2];

void *producer(void *arg)
{
  int item = *(int *)arg;
  pthread_mutex_lock(&ring_lock);
  int slot = head;
  head = slot + 1;
  pthread_mutex_unlock(&ring_lock);
  ring[head - 1] = item;
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int items[2] = {1, 2};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, producer, &items[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(ring[0] + ring[1] == 3);
  return 0;
}
