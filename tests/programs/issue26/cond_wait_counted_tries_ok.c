// seqloc-expect: no-failure
// The consumer waits for the producer's `data` at most twice, counting its wake-ups
// (spurious ones included, which POSIX allows), and uses it only when it came; otherwise
// it waits for the producer to end. Whatever the wake-ups, it reads 42.
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
  int got = ready ? data : -1;
  pthread_mutex_unlock(&m);
  pthread_join(p, 0);
  if (got < 0)
    got = data;
  assert(got == 42);
  return 0;
}
