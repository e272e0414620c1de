/* A YAML 2.2 witness written by hand for this program (tests/witness.rs) orders the
 * writer's store of an input before main's read: main reaches reach_error only when the
 * writer ran first and its input was 7. */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int x = 0;
int seen = 0;

void *writer(void *arg)
{
  int v = __VERIFIER_nondet_int();
  x = v;
  return 0;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  seen = x;
  if (seen == 7)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
