/* Two threads add to a shared counter without a lock: an update is lost, and
 * the assertion after the joins fails. Expected: false (unreach-call). */
#include <pthread.h>
#include <assert.h>

int count = 0;

void *add(void *arg)
{
  int seen;
  (void)arg;
  seen = count;
  count = seen + 1;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2);
  return 0;
}
