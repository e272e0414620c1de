// seqloc-expect: failure 15
// C11 threads: each worker means to keep its own slot in thread-specific storage (tss),
// but stores it in a plain global instead, which the other worker overwrites.
#include <threads.h>
#include <assert.h>

tss_t key;
int slots[2];
int *current;

int worker(void *arg)
{
  int *mine = arg;
  tss_set(key, mine);
  current = mine;
  int *got = current;
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
