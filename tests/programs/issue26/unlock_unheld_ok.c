// seqloc-expect: no-failure
// `unlock_unheld_fail.c` with its error path fixed: it returns without the unlock, so
// every unlock gives back a lock its thread holds. ESBMC and CBMC agree (no "must hold
// lock upon unlock").
//
//
//
#include <pthread.h>

pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
int table[2];
int used;

void *fill(void *arg) {
  int slot = *(int *)arg;
  if (slot < 0 || slot >= 2) {
    /* nothing taken, nothing to give back */
    return 0;
  }
  pthread_mutex_lock(&table_lock);
  table[slot] = 1;
  used = used + 1;
  pthread_mutex_unlock(&table_lock);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int a = 0, b = 2;
  pthread_create(&t1, 0, fill, &a);
  pthread_create(&t2, 0, fill, &b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
