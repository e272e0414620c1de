/* root cause: lines 15 25 26 17 (the reader sees the flag, then reads the size before the writer sets it) */
#include <pthread.h>
#include <assert.h>

int ready = 0;
int size = 0;
int slots[4];

void *writer(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < 4; i++)
    slots[i] = i;
  ready = 1;
  /* The size is published after the flag: the order violation. */
  size = 4;
  return 0;
}

void *reader(void *arg)
{
  int n = 0;
  (void)arg;
  if (ready) {
    n = size;
    assert(n == 4);
  }
  return 0;
}

int main(void)
{
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
