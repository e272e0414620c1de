// Each sampler updates the extremes under the lock but adds to the running sum after
// releasing it: `sum += v` (line 23) races, while the locked updates only run in
// some order.
#include <pthread.h>
#include <assert.h>

struct window {
  pthread_mutex_t m;
  int count;
  int high;
  int sum;
};

static struct window w = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0 };

static void window_add(int v)
{
  pthread_mutex_lock(&w.m);
  if (v > w.high)
    w.high = v;
  w.count = w.count + 1;
  pthread_mutex_unlock(&w.m);
  w.sum += v;
}

static void *sampler(void *arg)
{
  int base = *(int *)arg;
  window_add(base);
  window_add(base + 1);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int x = 10, y = 20;
  pthread_create(&a, 0, sampler, &x);
  pthread_create(&b, 0, sampler, &y);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(w.count == 4);
  assert(w.sum == 62);
  return 0;
}
