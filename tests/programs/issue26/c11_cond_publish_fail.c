// seqloc-expect: failure 19
// C11 threads: the producer announces `ready` and signals the consumer before it has
// written the data, so the consumer can wake and read the data too early.
#include <threads.h>
#include <assert.h>

mtx_t m;
cnd_t c;
int ready;
int data;

int producer(void *arg)
{
  (void)arg;
  mtx_lock(&m);
  ready = 1;
  cnd_signal(&c);
  mtx_unlock(&m);
  data = 42;
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
