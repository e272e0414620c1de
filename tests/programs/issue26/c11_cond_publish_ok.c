// seqloc-expect: no-failure
// C11 threads: the producer writes the data, then announces `ready` and signals the
// consumer, which waits in a loop for the announcement.
#include <threads.h>
#include <assert.h>

mtx_t m;
cnd_t c;
int ready;
int data;

int producer(void *arg)
{
  (void)arg;
  data = 42;
  mtx_lock(&m);
  ready = 1;
  cnd_signal(&c);
  mtx_unlock(&m);
  return 0;
}

int main(void)
{
  thrd_t t;
  mtx_init(&m, mtx_plain);
  cnd_init(&c);
  thrd_create(&t, producer, NULL);
  mtx_lock(&m);
  while (!ready)
    cnd_wait(&c, &m);
  mtx_unlock(&m);
  assert(data == 42);
  thrd_join(t, NULL);
  cnd_destroy(&c);
  mtx_destroy(&m);
  return 0;
}
