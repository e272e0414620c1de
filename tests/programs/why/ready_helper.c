// The producer marks the result ready under the lock (line 24) and only then
// computes it (line 26); the consumer asks a helper whether it is ready and reads
// the result too early.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int ready;
static int result;

static int is_ready(void)
{
  int r;
  pthread_mutex_lock(&m);
  r = ready;
  pthread_mutex_unlock(&m);
  return r;
}

void *producer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_mutex_unlock(&m);
  result = 42;
  return 0;
}

void *consumer(void *arg)
{
  (void)arg;
  if (is_ready())
    assert(result == 42);
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
