// seqloc-expect: no-failure
// C11 threads: `enter` takes the mutex again on each nested call, and main initializes it
// as a recursive mutex (mtx_plain | mtx_recursive), so each thread's nested locks succeed.
#include <threads.h>
#include <assert.h>

mtx_t m;
int depth;

void enter(int n)
{
  mtx_lock(&m);
  depth++;
  if (n > 0)
    enter(n - 1);
  mtx_unlock(&m);
}

int worker(void *arg)
{
  (void)arg;
  enter(2);
  return 0;
}

int main(void)
{
  thrd_t t;
  mtx_init(&m, mtx_plain | mtx_recursive);
  thrd_create(&t, worker, NULL);
  enter(1);
  thrd_join(t, NULL);
  assert(depth == 5);
  return 0;
}
