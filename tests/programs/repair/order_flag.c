/* expect: repair */
/* faulty: 16 17
 * The writer raises the `ready` flag (line 16) before it stores the
 * payload (line 17); the reader can see ready == 1 while data is still 0,
 * and its assertion fails. Good repair: swap the two independent writes so
 * that `data = 42;` precedes `ready = 1;` (publish after initializing). A
 * lock helps only if it also covers the reader's test and assertion. */
#include <pthread.h>
#include <assert.h>

int data = 0;
int ready = 0;

void *writer(void *arg)
{
  ready = 1;
  data = 42;
  return 0;
}

void *reader(void *arg)
{
  int r;
  r = ready;
  if (r) {
    assert(data == 42);
  }
  return 0;
}

int main(void)
{
  pthread_t w, r;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  assert(data == 42);
  return 0;
}
