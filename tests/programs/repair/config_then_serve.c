/* expect: repair */
/* faulty: 32 33
 * main starts the configurator and then the server at once (lines 32, 33);
 * the server reads `port` and `limit`, which the configurator writes, and
 * nothing orders the two: the server may start with the defaults. The
 * server has to wait until the configurator has written both. */
#include <pthread.h>
#include <assert.h>

int port = 0;
int limit = 0;
int served = 0;

void *configure(void *arg)
{
  (void)arg;
  port = 8080;
  limit = 4;
  return 0;
}

void *serve(void *arg)
{
  (void)arg;
  served = port + limit;
  return 0;
}

int main(void)
{
  pthread_t c, s;
  pthread_create(&c, 0, configure, 0);
  pthread_create(&s, 0, serve, 0);
  pthread_join(c, 0);
  pthread_join(s, 0);
  assert(served == 8084);
  return 0;
}
