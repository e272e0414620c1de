/* A thread with no shared read runs from its entry to its exit in one go: no point of
 * the sequential program names one of its statements. It is still a block of the failing
 * schedule (main joins it), so the schedule replays. main reads `digest` (line 32)
 * without joining the thread that writes it. */
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
