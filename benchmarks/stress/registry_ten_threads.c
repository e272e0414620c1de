/*
 * stress/registry_ten_threads.c -- ten threads register their ids in a shared
 * slot table; each then checks that its slot still holds its id.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation
 * Faulty lines: 32, 33, 35, 36. A member reads the slot count (32), releases
 *   the mutex (L33), writes its slot, and re-takes the mutex (L35) to store
 *   the new count (L36); two members can claim the same slot. Claiming the
 *   slot must be one critical section.
 *
 * Failing interleaving (3 context switches):
 *   main: L50 creates members M1..M10; L53 join(M1) blocks
 *   M1:   L32 n = 0, L33 unlock, L34 slots[0] = 1                      [switch 1]
 *   M2:   L32 n = 0, L33 unlock, L34 slots[0] = 2                      [switch 2]
 *   M1:   L35 lock, L36 nslots = 1, unlock; L38 fails (slots[0] is 2, not 1) [switch 3]
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
