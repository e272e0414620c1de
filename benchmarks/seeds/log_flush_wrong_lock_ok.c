/*
 * seeds/log_flush_wrong_lock_ok.c -- fixed version of seeds/log_flush_wrong_lock_bad.c (seqloc benchmark).
 *
 * wrong lock. A logger thread buffers
 * lines (pending, guarded by buf_lock); a flusher moves the buffered lines
 * to disk (flushed and disk_writes, guarded by io_lock).
 *
 * Fix: The flusher takes and resets the pending count under buf_lock.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "log_flush_wrong_lock_ok.c", 16, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

pthread_mutex_t buf_lock;   /* guards pending */
pthread_mutex_t io_lock;    /* guards flushed, disk_writes */
int pending = 0;
int flushed = 0;
int disk_writes = 0;

void *logger(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&buf_lock);
    pending = pending + 1;
    pthread_mutex_unlock(&buf_lock);
  }
  return 0;
}

void *flusher(void *arg)
{
  int n;
  (void)arg;
  pthread_mutex_lock(&buf_lock);
  n = pending;
  pending = 0;
  pthread_mutex_unlock(&buf_lock);
  pthread_mutex_lock(&io_lock);
  flushed = flushed + n;
  disk_writes = disk_writes + 1;
  pthread_mutex_unlock(&io_lock);
  return 0;
}

int main(void)
{
  pthread_t lg, fl;
  pthread_mutex_init(&buf_lock, 0);
  pthread_mutex_init(&io_lock, 0);
  pthread_create(&lg, 0, logger, 0);
  pthread_create(&fl, 0, flusher, 0);
  pthread_join(lg, 0);
  pthread_join(fl, 0);
  __VERIFIER_assert(pending + flushed == 2);
  return 0;
}
