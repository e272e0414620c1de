/*
 * seeds/log_flush_wrong_lock_bad.c -- wrong lock. A logger thread buffers
 * lines (pending, guarded by buf_lock); a flusher moves the buffered lines
 * to disk (flushed and disk_writes, guarded by io_lock).
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (wrong lock)
 * Faulty lines: 48, 51. The flusher takes the pending count under io_lock (L48, L51)
 *   instead of buf_lock, the mutex the logger updates it under, so the read
 *   and the reset of pending race with the logger's increments.
 *
 * Failing interleaving (4 context switches):
 *   main: L64,L65 create logger L and flusher F; L66 join(L) blocks
 *   F:    L48 lock io_lock, L49 n = 0                        [switch 1]
 *   L:    L38 pending = 1, L38 pending = 2; L ends           [switch 2]
 *   F:    L50 pending = 0, L53 flushed = 0; F ends           [switch 3]
 *   main: joins; L68 fails (0 + 0 != 2: two lines lost)      [switch 4]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "log_flush_wrong_lock_bad.c", 23, "reach_error"); }
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
  pthread_mutex_lock(&io_lock);
  n = pending;
  pending = 0;
  pthread_mutex_unlock(&io_lock);
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
