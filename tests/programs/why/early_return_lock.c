/* A reader polls a one-slot mailbox. `take` returns early when the slot is
 * empty, skipping the unlock at its end, so the reader's next poll locks the
 * mailbox it still holds. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t box_lock = PTHREAD_MUTEX_INITIALIZER;
int full = 0;
int slot = 0;

int take(int *out)
{
  pthread_mutex_lock(&box_lock);
  if (!full)
    return 0;
  *out = slot;
  full = 0;
  pthread_mutex_unlock(&box_lock);
  return 1;
}

void *reader(void *arg)
{
  int v = 0, got = 0;
  (void)arg;
  for (int i = 0; i < 2 && !got; i++)
    got = take(&v);
  return 0;
}

void *writer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&box_lock);
  slot = 7;
  full = 1;
  pthread_mutex_unlock(&box_lock);
  return 0;
}

int main(void)
{
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return 0;
}
