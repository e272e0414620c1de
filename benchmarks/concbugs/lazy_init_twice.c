/*
 * concbugs/lazy_init_twice.c -- single-variable atomicity violation
 * (double initialisation). Clients lazily initialise a shared hit counter
 * on first use, then count one hit each under a mutex.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (check-then-act)
 * Faulty lines: 29, 30, 31. The test of "ready" (29) and the
 *   initialisation (L30, L31) are not one atomic step, so a second
 *   client can re-initialise the counter after the first one counted its hit.
 *
 * Failing interleaving (4 context switches):
 *   main: L49,L50 create clients A, B; L51 join(A) blocks
 *   A:    L29 ready is 0                                               [switch 1]
 *   B:    L29 ready is 0, L30 hits = 0, L31 ready = 1, L40 hits = 1; B ends
 *                                                                      [switch 2]
 *   A:    L30 hits = 0, ready = 1, L40 hits = 1; A ends                [switch 3]
 *   main: joins; L53 assertion fails (hits == 1)                       [switch 4]
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int ready = 0;
int hits;

void ensure_ready(void)
{
  if (!ready) {
    hits = 0;
    ready = 1;
  }
}

void *client(void *arg)
{
  (void)arg;
  ensure_ready();
  pthread_mutex_lock(&m);
  hits = hits + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, client, 0);
  pthread_create(&b, 0, client, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2);
  return 0;
}
