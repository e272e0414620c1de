/*
 * Two counters of page hits: `record` updates the total under `hits_lock`, but
 * `record_fast`, added later for a hot path, updates it bare. An update of the slow
 * path can be lost between its read and its write.
 *
 * Expected verdict: false (unreach-call)
 * Faulty line: 29 (the update without `hits_lock`).
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t hits_lock = PTHREAD_MUTEX_INITIALIZER;
int hits = 0;

void *record(void *arg)
{
  int seen;
  (void)arg;
  pthread_mutex_lock(&hits_lock);
  seen = hits;
  hits = seen + 1;
  pthread_mutex_unlock(&hits_lock);
  return 0;
}

void *record_fast(void *arg)
{
  (void)arg;
  hits = hits + 1;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, record, 0);
  pthread_create(&b, 0, record_fast, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2);
  return 0;
}
