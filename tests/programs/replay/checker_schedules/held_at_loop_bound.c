/* main creates workers in a loop with no constant bound and is held before its next
 * iteration while a worker fails: the stop must name the loop's next statement, not the
 * cut the checker's own unwinding put there. */
#include <pthread.h>
extern void abort(void);
void reach_error(void) {}
extern int __VERIFIER_nondet_int(void);

int started = 0;

void *worker(void *arg)
{
  started = started + 1;
  if (started == 2) {
    ERROR: {reach_error(); abort();}
  }
  return 0;
}

int main(void)
{
  pthread_t t;
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
