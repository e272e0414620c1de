// seqloc-expect: no-failure
// A digit typed on standard input is added to `total` by two threads; the unlocked
// read-then-write is under the lock, so both additions count. `getchar` answers EOF or
// any character.
#include <stdio.h>
#include <pthread.h>
#include <assert.h>

int c, total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg)
{
  int t;
  (void)arg;
  if (c < '0' || c > '9')
    return 0;
  pthread_mutex_lock(&m);
  t = total;
  total = t + (c - '0');
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  c = getchar();
  assert(c == EOF || (c >= 0 && c <= 255));
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(c < '0' || c > '9' || total == 2 * (c - '0'));
  return 0;
}
