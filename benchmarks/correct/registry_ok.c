/*
 * correct/registry_ok.c -- fixed version of stress/registry_ten_threads.c (seqloc benchmark).
 *
 * ten threads register their ids in a shared
 * slot table; each then checks that its slot still holds its id.
 *
 * Fix: Reading the count, writing the slot and storing the new count form one critical section.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

#define NT 10

int slots[NT];
int nslots = 0;
pthread_mutex_t reg;

void *member(void *arg)
{
  int me = *(int *)arg;
  int n;
  pthread_mutex_lock(&reg);
  n = nslots;
  slots[n] = me;
  nslots = n + 1;
  pthread_mutex_unlock(&reg);
  assert(slots[n] == me);
  return 0;
}

int main(void)
{
  pthread_t th[NT];
  int ids[NT];
  int i;
  pthread_mutex_init(&reg, 0);
  for (i = 0; i < NT; i++) {
    ids[i] = i + 1;
    pthread_create(&th[i], 0, member, &ids[i]);
  }
  for (i = 0; i < NT; i++)
    pthread_join(th[i], 0);
  return 0;
}
