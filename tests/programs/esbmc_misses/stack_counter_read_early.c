/* main hands a counter on its stack to a scanner and reads it before the join.
 * Faulty lines: 29, 30 (the read must come after the join). */
#include <pthread.h>
#include <assert.h>

struct scan {
  int items[2];
  int found;
};

void *scanner(void *arg)
{
  struct scan *sc = arg;
  int i;
  for (i = 0; i < 2; i++)
    if (sc->items[i] != 0)
      sc->found = sc->found + 1;
  return 0;
}

int main(void)
{
  pthread_t t;
  struct scan sc;
  int seen;
  sc.items[0] = 4;
  sc.items[1] = 7;
  sc.found = 0;
  pthread_create(&t, 0, scanner, &sc);
  seen = sc.found;
  pthread_join(t, 0);
  assert(seen == 2);
  return 0;
}
