// seqloc-expect: no-failure
// The claim of goto_retry_claim_fail.c made one step with its re-check: a compare and
// swap in an atomic section, retried from the start (`goto again`) when it loses.
#include <pthread.h>
#include <assert.h>

int slots[2];

void *claimer(void *arg)
{
  int i, won;
  int me = (int)(long)arg;
again:
  i = 0;
  while (i < 2 && slots[i] != 0)
    i = i + 1;
  if (i == 2)
    return 0;
  won = __sync_bool_compare_and_swap(&slots[i], 0, me);
  if (!won)
    goto again;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, claimer, (void *)1);
  pthread_create(&b, 0, claimer, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(slots[0] != 0 && slots[1] != 0);
  return 0;
}
