/* The failure needs an input value: a thread stores the input, and the main
 * thread fails when it sees 7 stored before it checks. Expected: false. */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int stored = 0;

void *store(void *arg)
{
  int v;
  (void)arg;
  v = __VERIFIER_nondet_int();
  stored = v;
  return 0;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, store, 0);
  if (stored == 7)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
