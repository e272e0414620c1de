// seqloc-expect: refused get_slot
// seqloc-args: --undefined-functions nondet
// C89 style: `get_slot` is called undeclared (so it returns `int`) and its result is
// cast to a pointer. The real function returns some object's address — perhaps
// `&count` — so taking it as an arbitrary integer that points nowhere would be a guess:
// the convention is not applied and the call is refused by name.
#include <assert.h>
#include <pthread.h>
int count;
void *worker(void *arg)
{
  int *p = (int *)get_slot();
  *p = 1;
  return 0;
}
int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(count == 0);
  return 0;
}
