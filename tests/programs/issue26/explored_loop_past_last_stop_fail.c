// seqloc-expect: failure 20
// Each worker copies its name into its own row of `names` (the row chosen by its
// argument, so every store may touch the other worker's row: a switch point), then counts
// itself in without a lock: the two read-then-write updates of `log_len` can interleave
// and one is lost (lines 19-20). The failing run is found by the explicit-state search
// (the bounded search's rounds do not reach it): it switches threads inside the copy
// loops, and a loop runs on past its thread's last switch, so its replay must unwind the
// loops as far as they ran, not only as deep as the schedule's stops ("the sequential
// program does not reproduce the failure" once).
#include <pthread.h>
#include <assert.h>
char names[2][8];
int log_len;
void *worker(void *arg)
{
  long id = (long)arg;
  { char *d = names[id]; const char *s = id ? "beta" : "alpha"; unsigned long i = 0; int c = 1;
    while (i < 8) { if (c != 0) c = s[i]; d[i] = c; i++; } }
  int t = log_len;
  log_len = t + 1;
  return 0;
}
int main(void)
{
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(log_len == 2);
  return 0;
}
