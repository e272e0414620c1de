// seqloc-expect: refused also called or named elsewhere
// C11 threads: `work` is a thread's start routine and is also called directly by main.
// seqloc runs a C11 start routine as a pthread one, returning `void *`, so the direct
// call would read its result with the wrong type: refused by name.
#include <threads.h>
#include <assert.h>

int done;

int work(void *arg)
{
  (void)arg;
  done++;
  return done;
}

int main(void)
{
  thrd_t t;
  thrd_create(&t, work, NULL);
  int r = work(NULL);
  thrd_join(t, NULL);
  assert(r >= 1);
  return 0;
}
