/*
 * correct/join_unlock_ok.c -- fixed version of deadlock/join_holding_lock.c (seqloc benchmark).
 *
 * join cycle through a mutex: main joins a
 * helper while holding the mutex the helper needs.
 *
 * Fix: main releases cfg_lock before joining the helper.
 *
 * Expected verdict: true (no-deadlock)
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
  pthread_mutex_unlock(&cfg_lock);
  pthread_join(h, 0);
  return 0;
}
