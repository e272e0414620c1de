/*
 * correct/thread_ids_ok.c -- fixed version of stress/thread_ids_loopvar.c (seqloc benchmark).
 *
 * thread array created in a loop with
 * per-thread ids. Each worker adds its id to a mutex-protected total.
 *
 * Fix: Each thread gets the address of its own id slot ids[i].
 *
 * Expected verdict: true (unreach-call)
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
  int ids[NT];
  int i, k;
  pthread_mutex_init(&tm, 0);
  for (i = 0; i < NT; i++) {
    ids[i] = i;
    pthread_create(&th[i], 0, worker, &ids[i]);
  }
  for (k = 0; k < NT; k++)
    pthread_join(th[k], 0);
  assert(total == 0 + 1 + 2 + 3);
  return 0;
}
