// seqloc-expect: refused __CPROVER_threads_exited
// CBMC's library sets `__CPROVER_threads_exited[id]` as a thread it started ends;
// seqloc has no such writer, so a program waiting on it is refused by name rather than
// checked against an array that stays zero.
#include <pthread.h>
extern _Bool __CPROVER_threads_exited[];
int done;
void *worker(void *arg)
{
  done = 1;
  return 0;
}
int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __CPROVER_assume(__CPROVER_threads_exited[1]);
  __CPROVER_assert(done == 1, "the worker ran");
  return 0;
}
