// seqloc-expect: failure 22
// Two claimers each take a free slot, starting over (`goto again`) when the slot they
// picked was taken meanwhile. The re-check at line 20 and the claim at line 22 are not
// one step: both claimers can pass the check on the same slot, and one claim is lost.
#include <pthread.h>
#include <assert.h>

int slots[2];

void *claimer(void *arg)
{
  int i;
  int me = (int)(long)arg;
again:
  i = 0;
  while (i < 2 && slots[i] != 0)
    i = i + 1;
  if (i == 2)
    return 0;
  if (slots[i] != 0)
    goto again;
  slots[i] = me;
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
