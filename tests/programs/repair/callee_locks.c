/* expect: repair */
/* faulty: 29 30
 * Two workers bump the shared `hits` counter with a read (line 29) and a
 * write (line 30) that can interleave, losing an update; the log_event()
 * calls on lines 28 and 31 sit in the same block and take mutex m inside.
 * Wrapping them together with 29-30 in m self-deadlocks (m is not
 * recursive). Good repair: m (or a new mutex) around lines 29-30 only,
 * locked after the call on line 28 and unlocked before line 31. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int events = 0;
int hits = 0;

void log_event(void)
{
  pthread_mutex_lock(&m);
  events++;
  pthread_mutex_unlock(&m);
}

void *worker(void *arg)
{
  int id = *(int *)arg;
  int h;
  if (id >= 0) {
    log_event();
    h = hits;
    hits = h + 1;
    log_event();
  }
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  int id1 = 1;
  int id2 = 2;
  pthread_create(&t1, 0, worker, &id1);
  pthread_create(&t2, 0, worker, &id2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(events == 4);
  assert(hits == 2);
  return 0;
}
