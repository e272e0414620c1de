/* expect: repair */
/* faulty: 41 42
 * Thread A updates y under mutex a, thread B updates y under mutex b, so
 * the two read-modify-writes of y race (y ends 1 or 10, not 11). B already
 * nests b -> a via bump_x() (line 43); the original has no deadlock. Good
 * repair: in thread_b, lock a around lines 41-42 only (order b -> a, as
 * bump_x already does), or a new mutex around 41-42 in B and 24-25 in A,
 * ending before the bump_x() call. Wrong repairs that deadlock: taking b
 * inside A's a-section (a -> b against b -> a), or a new mutex c nested
 * inside a in A while in B it also covers bump_x() (a -> c against c -> a). */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int x = 0;
int y = 0;

void *thread_a(void *arg)
{
  int t;
  pthread_mutex_lock(&a);
  x = x + 1;
  t = y;
  y = t + 1;
  pthread_mutex_unlock(&a);
  return 0;
}

void bump_x(void)
{
  pthread_mutex_lock(&a);
  x = x + 1;
  pthread_mutex_unlock(&a);
}

void *thread_b(void *arg)
{
  int s;
  pthread_mutex_lock(&b);
  s = y;
  y = s + 10;
  bump_x();
  pthread_mutex_unlock(&b);
  return 0;
}

int main(void)
{
  pthread_t ta, tb;
  pthread_create(&ta, 0, thread_a, 0);
  pthread_create(&tb, 0, thread_b, 0);
  pthread_join(ta, 0);
  pthread_join(tb, 0);
  assert(x == 2);
  assert(y == 11);
  return 0;
}
