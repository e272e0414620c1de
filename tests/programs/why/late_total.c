/* The writer publishes `ready` before the value it guards: a reader that sees the flag
   can read `total` before it is written (line 15 belongs after line 16). */
#include <pthread.h>
#include <assert.h>

int ready = 0;
int total = 0;

void *writer(void *arg)
{
  int i, s = 0;
  (void)arg;
  for (i = 1; i <= 3; i++)
    s = s + i;
  ready = 1;
  total = s;
  return 0;
}

void *reader(void *arg)
{
  int seen;
  (void)arg;
  if (ready) {
    seen = total;
    assert(seen == 6);
  }
  return 0;
}

int main(void)
{
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
