/* expect: repair */
/* faulty: 36
 * main starts a hasher and a logger, joins only the logger, and then reads
 * the digest the hasher writes (line 36): the hasher may not have run yet.
 * main has to join the hasher before it reads the digest. (The logger runs
 * from its entry to its exit in one go, with no point of the sequential
 * program naming one of its statements: tests/cli.rs checks that it keeps
 * its block in the failing schedule.) */
#include <pthread.h>
#include <assert.h>

int digest = 0;
int logged = 0;

void *hasher(void *arg)
{
  int seed = *(int *)arg;
  digest = seed * 31 + 7;
  return 0;
}

void *logger(void *arg)
{
  (void)arg;
  logged = 1;
  return 0;
}

int main(void)
{
  pthread_t h, l;
  int seed = 3;
  pthread_create(&h, 0, hasher, &seed);
  pthread_create(&l, 0, logger, 0);
  pthread_join(l, 0);
  assert(digest == 100);
  return 0;
}
