/*
 * correct/relock_ok.c -- fixed version of deadlock/relock_in_helper.c (seqloc benchmark).
 *
 * self-deadlock two call levels deep. Two
 * threads record pairs of entries in a log; record_pair takes the log mutex
 * to keep a pair together and calls append_entry, which takes it again.
 *
 * Fix: append_entry expects its caller to hold log_lock and no longer locks it itself.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_mutex_t log_lock;
int log_buf[4];
int log_len = 0;

void append_entry(int v)
{
  log_buf[log_len] = v;
  log_len = log_len + 1;
}

void record_pair(int a, int b)
{
  pthread_mutex_lock(&log_lock);
  append_entry(a);
  append_entry(b);
  pthread_mutex_unlock(&log_lock);
}

void *recorder(void *arg)
{
  int base = *(int *)arg;
  record_pair(base, base + 1);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int base_a = 10, base_b = 20;
  pthread_mutex_init(&log_lock, 0);
  pthread_create(&a, 0, recorder, &base_a);
  pthread_create(&b, 0, recorder, &base_b);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
