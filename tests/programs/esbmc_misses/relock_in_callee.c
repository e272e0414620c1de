/* A lookup notes its key under the statistics lock and, holding it, calls count_hit,
 * which takes the lock again: a default mutex relocked by its owner deadlocks.
 * Faulty lines: 13, 22 (count_hit must not lock what its caller holds). */
#include <pthread.h>

pthread_mutex_t stats_lock;
int keys[2] = { 3, 4 };
int hits = 0;
int last_key = 0;

void count_hit(void)
{
  pthread_mutex_lock(&stats_lock);
  hits = hits + 1;
  pthread_mutex_unlock(&stats_lock);
}

void note_lookup(int key, int next)
{
  pthread_mutex_lock(&stats_lock);
  last_key = key + next;
  count_hit();
  pthread_mutex_unlock(&stats_lock);
}

void *lookup(void *arg)
{
  int key = *(int *)arg;
  note_lookup(key, key + 1);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_mutex_init(&stats_lock, 0);
  pthread_create(&a, 0, lookup, &keys[0]);
  pthread_create(&b, 0, lookup, &keys[1]);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
