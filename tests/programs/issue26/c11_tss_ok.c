// seqloc-expect: no-failure
// C11 threads: each worker keeps its own slot in thread-specific storage (tss): a key's
// value is per thread, so the other worker setting it for itself changes nothing here.
#include <threads.h>
#include <assert.h>

tss_t key;
int slots[2];

int worker(void *arg)
{
  int *mine = arg;
  tss_set(key, mine);
  int *got = tss_get(key);
  assert(got == mine);
  return 0;
}

int main(void)
{
  thrd_t a, b;
  if (tss_create(&key, NULL) != thrd_success)
    return 1;
  thrd_create(&a, worker, &slots[0]);
  thrd_create(&b, worker, &slots[1]);
  thrd_join(a, NULL);
  thrd_join(b, NULL);
  tss_delete(key);
  return 0;
}
