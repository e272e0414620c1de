/* The failure is reached inside a __VERIFIER_atomic_ function, with another thread
 * preempted half-way: the checker's schedule must still say where that thread stood. */
#include <pthread.h>
extern void abort(void);
void reach_error(void) {}

int stage = 0;
int seen = 0;

void __VERIFIER_atomic_check(void)
{
  if (stage == 1 && seen == 0) {
    ERROR: {reach_error(); abort();}
  }
}

void *writer(void *arg)
{
  for (int i = 0; i < 3; i++) {
    stage = stage + 1;
    seen = seen + 1;
  }
  return 0;
}

void *checker(void *arg)
{
  __VERIFIER_atomic_check();
  return 0;
}

int main(void)
{
  pthread_t w, c;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&c, 0, checker, 0);
  return 0;
}
