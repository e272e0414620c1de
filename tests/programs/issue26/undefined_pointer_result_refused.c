// seqloc-expect: refused lookup
// seqloc-args: --undefined-functions nondet
// An undefined function returning a pointer: a nondeterministic pointer would point
// anywhere, so the convention is not applied and the call is refused by name.
#include <assert.h>
#include <pthread.h>
int *lookup(int key);
int cell;
void *worker(void *arg)
{
  int *p = lookup(1);
  *p = 1;
  return 0;
}
int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(cell == 0);
  return 0;
}
