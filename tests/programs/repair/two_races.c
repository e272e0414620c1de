/* expect: repair */
/* faulty: 18 19 27 28
 * Two independent lost updates: the counters `hits` (lines 18-19, in
 * `visit`) and `misses` (lines 27-28, in `skip`) are each read into a local
 * and written back by two threads with no lock. A failing interleaving
 * shows one of the races; the repair must remove both, so the program is
 * localized again after the first fix. */
#include <pthread.h>
#include <assert.h>

int hits = 0;
int misses = 0;

void *visit(void *arg)
{
  int h;
  (void)arg;
  h = hits;
  hits = h + 1;
  return 0;
}

void *skip(void *arg)
{
  int m;
  (void)arg;
  m = misses;
  misses = m + 1;
  return 0;
}

int main(void)
{
  pthread_t a, b, c, d;
  pthread_create(&a, 0, visit, 0);
  pthread_create(&b, 0, visit, 0);
  pthread_create(&c, 0, skip, 0);
  pthread_create(&d, 0, skip, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  pthread_join(d, 0);
  assert(hits == 2 && misses == 2);
  return 0;
}
