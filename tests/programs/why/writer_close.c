/* A disk writer thread sleeps until a page is dirty. Closing the device sets `closing`
 * and wakes every sleeper (lines 49-50), but the writer's wait loop tests only the
 * dirty count (line 25): woken with nothing to write, it sleeps again, and the close
 * waits for it to exit for ever. */
#include <pthread.h>

#define PAGES 2

pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t dev_wake = PTHREAD_COND_INITIALIZER;
int dirty;
int closing;
int written[PAGES];
int flushes;

void *disk_writer(void *arg)
{
  int page = 0;
  for (;;) {
    pthread_mutex_lock(&dev_lock);
    if (closing && dirty == 0) {
      pthread_mutex_unlock(&dev_lock);
      break;
    }
    while (dirty == 0)
      pthread_cond_wait(&dev_wake, &dev_lock);
    if (dirty > 0) {
      dirty = dirty - 1;
      written[page % PAGES] = 1;
      page = page + 1;
      flushes = flushes + 1;
    }
    pthread_mutex_unlock(&dev_lock);
  }
  return arg;
}

void mark_dirty(void)
{
  pthread_mutex_lock(&dev_lock);
  dirty = dirty + 1;
  pthread_cond_signal(&dev_wake);
  pthread_mutex_unlock(&dev_lock);
}

void close_device(pthread_t writer)
{
  pthread_mutex_lock(&dev_lock);
  closing = 1;
  pthread_cond_broadcast(&dev_wake);
  pthread_mutex_unlock(&dev_lock);
  pthread_join(writer, 0);
}

int main(void)
{
  pthread_t w;
  pthread_create(&w, 0, disk_writer, 0);
  mark_dirty();
  close_device(w);
  return 0;
}
