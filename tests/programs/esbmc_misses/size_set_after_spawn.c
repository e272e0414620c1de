/* main starts the reader before it sets the table size the reader relies on.
 * Faulty lines: 19, 20 (the size must be set before line 19 starts the reader). */
#include <pthread.h>
#include <assert.h>

int table_size = 0;

void *reader(void *arg)
{
  int n = table_size;
  assert(n == 8);
  return arg;
}

int main(void)
{
  pthread_t t;
  int spare = 1;
  pthread_create(&t, 0, reader, 0);
  table_size = 8;
  pthread_join(t, 0);
  return spare - 1;
}
