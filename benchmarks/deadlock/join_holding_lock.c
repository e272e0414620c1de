/*
 * deadlock/join_holding_lock.c -- join cycle through a mutex: main joins a
 * helper while holding the mutex the helper needs.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (join while holding a lock)
 * Faulty lines: 38, 39. main joins the helper (38) before it releases cfg_lock
 *   (L39); the helper needs cfg_lock to finish. The unlock must come before
 *   the join.
 *
 * Deadlocking interleaving (1 context switch):
 *   main: L35 locks cfg_lock, L36 cfg = 5, L37 creates helper H, L38 join(H) blocks
 *   H:    L25 blocks on cfg_lock                                       [switch 1]
 *   main waits for H, H for cfg_lock held by main: deadlock.
 */
#include <pthread.h>

pthread_mutex_t cfg_lock;
int cfg = 0;
int copies = 0;

void *helper(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&cfg_lock);
  copies = copies + cfg;
  pthread_mutex_unlock(&cfg_lock);
  return 0;
}

int main(void)
{
  pthread_t h;
  pthread_mutex_init(&cfg_lock, 0);
  pthread_mutex_lock(&cfg_lock);
  cfg = 5;
  pthread_create(&h, 0, helper, 0);
  pthread_join(h, 0);
  pthread_mutex_unlock(&cfg_lock);
  return 0;
}
