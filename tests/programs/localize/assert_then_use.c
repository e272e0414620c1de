// The monitor checks the published table pointer with __VERIFIER_assert and then reads
// through it. `ready` is raised (line 24) before `table` is stored (line 25): the check
// fails when the monitor runs in between. After the failed check the run ends (the
// assertion's abort), so the read through NULL at line 33 never happens.
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "assert_then_use.c", 10, "reach_error"); }
void __VERIFIER_assert(int cond) {
  if (!cond) {
    reach_error();
    abort();
  }
}

int rows[2] = {3, 4};
int *table;
int ready, sum;

void *publisher(void *arg) {
  (void)arg;
  ready = 1;
  table = rows;
  return 0;
}

void *monitor(void *arg) {
  (void)arg;
  if (ready) {
    __VERIFIER_assert(table != 0);
    sum = table[0] + table[1];
  }
  return 0;
}

int main(void) {
  pthread_t p, m;
  pthread_create(&p, 0, publisher, 0);
  pthread_create(&m, 0, monitor, 0);
  pthread_join(p, 0);
  pthread_join(m, 0);
  return 0;
}
