// seqloc-expect: refused strncat
// seqloc-args: --undefined-functions nondet
// `strncat` called without `<string.h>`: the convention for undefined functions does
// not cover a C library function, whose effect (here, the copy the assertion reads) is
// known and is not nothing. Refused by name rather than taken as a no-op.
#include <assert.h>
#include <pthread.h>
char name[8];
void *worker(void *arg)
{
  strncat(name, "abc", 3);
  return 0;
}
int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(name[0] == 'a');
  return 0;
}
