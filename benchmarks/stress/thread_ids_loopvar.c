/*
 * stress/thread_ids_loopvar.c -- thread array created in a loop with
 * per-thread ids. Each worker adds its id to a mutex-protected total.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation (thread id read after the loop variable changed)
 * Faulty lines: 43, 30. main passes the address of its loop variable i
 *   (L43); a worker reading it (L30) after main has advanced i gets a wrong
 *   id. Each thread needs its own id slot (ids[i]).
 *
 * Failing interleaving (5 context switches):
 *   main: L43 creates W0..W3 (all with &i); the loop ends with i = 4;
 *         L45 join(W0) blocks
 *   W0:   L30 id = 4, L32 total = 4; W0 ends                           [switch 1]
 *   W1:   id = 4, total = 8; W1 ends                                   [switch 2]
 *   W2:   id = 4, total = 12; W2 ends                                  [switch 3]
 *   W3:   id = 4, total = 16; W3 ends                                  [switch 4]
 *   main: joins; L46 fails (16 != 6)                                   [switch 5]
 */
#include <pthread.h>
#include <assert.h>

#define NT 4

int total = 0;
pthread_mutex_t tm;

void *worker(void *arg)
{
  int id = *(int *)arg;
  pthread_mutex_lock(&tm);
  total = total + id;
  pthread_mutex_unlock(&tm);
  return 0;
}

int main(void)
{
  pthread_t th[NT];
  int i, k;
  pthread_mutex_init(&tm, 0);
  for (i = 0; i < NT; i++)
    pthread_create(&th[i], 0, worker, &i);
  for (k = 0; k < NT; k++)
    pthread_join(th[k], 0);
  assert(total == 0 + 1 + 2 + 3);
  return 0;
}
