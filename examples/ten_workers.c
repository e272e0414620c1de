/* Ten workers each add their share to a shared total without a lock: two of them can
   read the same total, and one addition is lost. The HTML report's ten-lane example
   (docs/html-report.png). */
#include <pthread.h>
#include <assert.h>

#define WORKERS 10

int total = 0;
int done = 0;

void *worker(void *arg)
{
  int share = *(int *)arg;
  int seen = total;
  total = seen + share;
  done = done + 1;
  return 0;
}

int main(void)
{
  pthread_t t[WORKERS];
  int shares[WORKERS];
  int i;
  for (i = 0; i < WORKERS; i++) {
    shares[i] = i + 1;
    pthread_create(&t[i], 0, worker, &shares[i]);
  }
  for (i = 0; i < WORKERS; i++)
    pthread_join(t[i], 0);
  assert(total == 55);
  return 0;
}
