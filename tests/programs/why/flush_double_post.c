/* Two writers append to a buffer guarded by a binary semaphore used as a lock. When the
 * buffer fills, the writer flushes it through a helper that ends by posting the
 * semaphore (line 27), and the writer posts it again on its way out (line 39): two
 * posts for one wait let both writers into the buffer at once. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

#define CAP 2

sem_t guard;
int items[CAP];
int count;
int written;
int flushed;

void take(void)
{
  sem_wait(&guard);
}

void flush_full(void)
{
  for (int i = 0; i < count; i++)
    flushed += items[i] != 0;
  count = 0;
  sem_post(&guard);
}

void put(int v)
{
  take();
  int at = count;
  items[at] = v;
  count = at + 1;
  written++;
  if (count == CAP)
    flush_full();
  sem_post(&guard);
}

void *writer(void *arg)
{
  int base = *(int *)arg;
  for (int i = 0; i < 2; i++)
    put(base + i);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int x = 1, y = 10;
  sem_init(&guard, 0, 1);
  pthread_create(&a, 0, writer, &x);
  pthread_create(&b, 0, writer, &y);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(flushed + count == written);
  return 0;
}
