// seqloc-expect: failure 34
// The consumer waits for the producer's `data` at most twice, counting its wake-ups, and
// then uses it without looking whether it came (line 34): POSIX lets a wait wake without
// a signal (a spurious wake-up), so after two of them the loop ends with `ready` unset
// and `data` not yet written. (A loop that only re-tests its predicate cannot see a
// spurious wake-up; this one counts them.)
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, data, wakeups;

void *producer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  data = 42;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t p;
  pthread_create(&p, 0, producer, 0);
  pthread_mutex_lock(&m);
  while (!ready && wakeups < 2) {
    pthread_cond_wait(&c, &m);
    wakeups++;
  }
  int got = data;
  pthread_mutex_unlock(&m);
  assert(got == 42);
  pthread_join(p, 0);
  return 0;
}
