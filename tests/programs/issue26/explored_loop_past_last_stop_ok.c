// seqloc-expect: no-failure
// Each worker copies its name into its own row of `names` (the row chosen by its
// argument, so every store may touch the other worker's row: a switch point), then counts
// itself in under a lock: no update of `log_len` is lost, however the copies
// interleave.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
char names[2][8];
int log_len;
void *worker(void *arg)
{
  long id = (long)arg;
  { char *d = names[id]; const char *s = id ? "beta" : "alpha"; unsigned long i = 0; int c = 1;
    while (i < 8) { if (c != 0) c = s[i]; d[i] = c; i++; } }
  pthread_mutex_lock(&lock);
  int t = log_len;
  log_len = t + 1;
  pthread_mutex_unlock(&lock);
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
