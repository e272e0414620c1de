/* main lends a frame to a painter thread and gives the frame back to the pool
 * for a second thread to reuse. The give-back comes before main has waited for
 * the painter to finish with the frame. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t pool = PTHREAD_MUTEX_INITIALIZER;
int frame[2];
int frame_free = 0;

void frame_release(void)
{
  pthread_mutex_lock(&pool);
  frame_free = 1;
  pthread_mutex_unlock(&pool);
}

void *painter(void *arg)
{
  int total = frame[0] + frame[1];
  assert(total == 2);
  return arg;
}

void *reuser(void *arg)
{
  pthread_mutex_lock(&pool);
  if (frame_free) {
    frame[0] = 5;
    frame_free = 0;
  }
  pthread_mutex_unlock(&pool);
  return arg;
}

int main(void)
{
  pthread_t p, r;
  frame[0] = 1;
  frame[1] = 1;
  pthread_create(&p, 0, painter, 0);
  pthread_create(&r, 0, reuser, 0);
  frame_release();
  pthread_join(p, 0);
  pthread_join(r, 0);
  return 0;
}
