/* Two viewers read the current settings through a helper that takes the store's lock
 * (line 43) and then waits, on another lock's condition variable, for the settings to
 * be loaded. The loader needs the store's lock to publish before it can announce the
 * load: a nested-monitor deadlock. The viewers are created in a loop, the loader after
 * them, so one thread slot may run either function. */
#include <pthread.h>
#include <stddef.h>

struct settings {
  int level;
  int width;
};

struct store {
  pthread_mutex_t store_lock;
  pthread_mutex_t load_lock;
  pthread_cond_t load_cv;
  struct settings *current;
  int ready;
};

static struct settings copies[2] = { { 1, 10 }, { 0, 0 } };
static struct store st = {
  PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
  PTHREAD_COND_INITIALIZER, &copies[0], 0
};
static int shown[2];

static void announce(struct store *s, struct settings *n)
{
  pthread_mutex_lock(&s->store_lock);
  s->current = n;
  pthread_mutex_unlock(&s->store_lock);
  pthread_mutex_lock(&s->load_lock);
  s->ready = 1;
  pthread_cond_broadcast(&s->load_cv);
  pthread_mutex_unlock(&s->load_lock);
}

static int current_width(struct store *s)
{
  int w;
  pthread_mutex_lock(&s->store_lock);
  pthread_mutex_lock(&s->load_lock);
  while (!s->ready)
    pthread_cond_wait(&s->load_cv, &s->load_lock);
  pthread_mutex_unlock(&s->load_lock);
  w = s->current->width;
  pthread_mutex_unlock(&s->store_lock);
  return w;
}

static void *loader(void *arg)
{
  struct settings *n = arg;
  n->level = 2;
  n->width = 80;
  announce(&st, n);
  return NULL;
}

static void *viewer(void *arg)
{
  int *out = arg;
  *out = current_width(&st);
  return NULL;
}

int main(void)
{
  pthread_t l, v[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&v[i], NULL, viewer, &shown[i]);
  pthread_create(&l, NULL, loader, &copies[1]);
  pthread_join(l, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(v[i], NULL);
  return 0;
}
