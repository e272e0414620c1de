/*
 * stress/registry_ten_threads.c -- ten threads register their ids in a shared
 * slot table; each then checks that its slot still holds its id.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation
 * Faulty lines: 33, 34, 36, 37. A member reads the slot count (33), releases
 *   the mutex (34), writes its slot, and re-takes the mutex (36) to store
 *   the new count (37); two members can claim the same slot. Claiming the
 *   slot must be one critical section.
 *
 * Failing interleaving (4 context switches):
 *   main: 51 creates members M1..M10; 54 join(M1) blocks
 *   M1:   33 n = 0, 34 unlock                                              [switch 1]
 *   M2:   33 n = 0, 35 slots[0] = 2, 36 lock, 37 nslots = 1, unlock      [switch 2]
 *   M1:   35 slots[0] = 1, nslots = 1; M1 ends                            [switch 3]
 *   M2:   39 fails (slots[0] is 1, not 2)                                 [switch 4]
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
  pthread_mutex_unlock(&reg);
  slots[n] = me;
  pthread_mutex_lock(&reg);
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
