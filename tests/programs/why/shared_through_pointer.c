/* Two threads add to one counter, one through a pointer to it, without a lock: an
   update is lost. */
#include <pthread.h>
#include <assert.h>

struct counter { int hits; };
struct counter c;

void bump(struct counter *p)
{
  p->hits = p->hits + 1;
}

void *via_pointer(void *arg)
{
  (void)arg;
  bump(&c);
  return 0;
}

void *direct(void *arg)
{
  (void)arg;
  c.hits = c.hits + 1;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, via_pointer, 0);
  pthread_create(&b, 0, direct, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(c.hits == 2);
  return 0;
}
