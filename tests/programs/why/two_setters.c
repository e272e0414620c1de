// A profile switch calls two setters, each locking on its own: a reader can see the
// new width with the old height. The two calls (lines 27 and 28) were meant as one
// update.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t dim_lock = PTHREAD_MUTEX_INITIALIZER;
static int width = 4, height = 2;

static void set_width(int v)
{
  pthread_mutex_lock(&dim_lock);
  width = v;
  pthread_mutex_unlock(&dim_lock);
}

static void set_height(int v)
{
  pthread_mutex_lock(&dim_lock);
  height = v;
  pthread_mutex_unlock(&dim_lock);
}

static void *switcher(void *arg)
{
  (void)arg;
  set_width(8);
  set_height(4);
  return 0;
}

static void *viewer(void *arg)
{
  (void)arg;
  int a, b;
  pthread_mutex_lock(&dim_lock);
  a = width;
  b = height;
  pthread_mutex_unlock(&dim_lock);
  assert(a == 2 * b);
  return 0;
}

int main(void)
{
  pthread_t s, v;
  pthread_create(&s, 0, switcher, 0);
  pthread_create(&v, 0, viewer, 0);
  pthread_join(s, 0);
  pthread_join(v, 0);
  return 0;
}
