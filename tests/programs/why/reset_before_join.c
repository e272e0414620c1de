// main resets the shared counter block through a helper while the worker still uses
// it; the reset belongs after the join (the call at line 43, not the helper's body).
#include <pthread.h>
#include <assert.h>

struct meter {
  pthread_mutex_t m;
  int live;
  int ticks;
};

static void meter_retire(struct meter *mt)
{
  pthread_mutex_lock(&mt->m);
  mt->live = 0;
  pthread_mutex_unlock(&mt->m);
}

static void meter_tick(struct meter *mt)
{
  pthread_mutex_lock(&mt->m);
  assert(mt->live);
  mt->ticks = mt->ticks + 1;
  pthread_mutex_unlock(&mt->m);
}

static void *ticker(void *arg)
{
  struct meter *mt = arg;
  meter_tick(mt);
  meter_tick(mt);
  return 0;
}

int main(void)
{
  static struct meter mt;
  pthread_t t;
  pthread_mutex_init(&mt.m, 0);
  mt.live = 1;
  mt.ticks = 0;
  pthread_create(&t, 0, ticker, &mt);
  meter_retire(&mt);
  pthread_join(t, 0);
  return 0;
}
