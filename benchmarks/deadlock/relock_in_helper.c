/*
 * deadlock/relock_in_helper.c -- self-deadlock two call levels deep. Two
 * threads record pairs of entries in a log; record_pair takes the log mutex
 * to keep a pair together and calls append_entry, which takes it again.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (relocking a non-recursive mutex)
 * Faulty lines: 35, 27. record_pair holds log_lock (35) while calling
 *   append_entry, which locks log_lock again (L27); a default mutex is not
 *   recursive, so the thread blocks on itself. One of the two acquisitions
 *   (and its unlock) must go.
 *
 * Deadlocking interleaving (2 context switches):
 *   main: L53,L54 create recorders A and B; L55 join(A) blocks
 *   A:    L35 locks log_lock, L36 calls append_entry, L27 blocks on log_lock [switch 1]
 *   B:    L35 blocks on log_lock                                       [switch 2]
 *   All threads are blocked: deadlock.
 */
#include <pthread.h>

pthread_mutex_t log_lock;
int log_buf[4];
int log_len = 0;

void append_entry(int v)
{
  pthread_mutex_lock(&log_lock);
  log_buf[log_len] = v;
  log_len = log_len + 1;
  pthread_mutex_unlock(&log_lock);
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
