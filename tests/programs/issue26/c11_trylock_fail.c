// seqloc-expect: failure 17
// C11 threads: a worker that finds the mutex busy gives up (mtx_trylock answers
// thrd_busy) instead of waiting for it, so its update is skipped whenever main still
// holds the mutex.
#include <threads.h>
#include <assert.h>

mtx_t m;
int updates;
int ready;

int worker(void *arg)
{
  (void)arg;
  int r;
  r = mtx_trylock(&m);
  if (r == thrd_busy)
    return 1;
  updates++;
  mtx_unlock(&m);
  return 0;
}

int main(void)
{
  thrd_t t;
  int gave_up = -1;
  mtx_init(&m, mtx_plain);
  mtx_lock(&m);
  thrd_create(&t, worker, NULL);
  updates++;
  mtx_unlock(&m);
  thrd_join(t, &gave_up);
  assert(gave_up == 0 || updates == 1);
  assert(updates == 2);
  return 0;
}
