// seqloc-expect: failure 20
// C11 threads: each worker initializes the shared table on first use, but tests the
// `initialized` flag itself instead of using call_once, so both workers can run the
// setup.
#include <threads.h>
#include <assert.h>

once_flag flag = ONCE_FLAG_INIT;
int initialized, setups, value;

void setup(void)
{
  setups++;
  value = 7;
  initialized = 1;
}

int worker(void *arg)
{
  if (!initialized)
    setup();
  (void)arg;
  return value;
}

int main(void)
{
  thrd_t a, b;
  int ra, rb, x, y;
  thrd_create(&a, worker, &x);
  thrd_create(&b, worker, &y);
  thrd_join(a, &ra);
  thrd_join(b, &rb);
  assert(setups == 1);
  assert(ra == 7 && rb == 7);
  return 0;
}
