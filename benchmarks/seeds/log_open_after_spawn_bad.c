/*
 * seeds/log_open_after_spawn_bad.c -- order violation. A request handler
 * records its status code in a shared in-memory access log; main opens the
 * log (gives it its capacity) and records its own entry. Every append is
 * made under log_lock.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation
 * Faulty lines: 65, 66. main starts the handler (L65) before it opens the
 *   log (L66); a handler that runs first finds a log of capacity 0 and its
 *   entry is dropped. No lock is missing: log_open must come before
 *   pthread_create.
 *
 * Failing interleaving (1 context switch):
 *   main: L64 init log_lock, L65 create handler H            [switch 1]
 *   H:    L55 log_append: lock, L43 used (0) < cap (0) is false, unlock;
 *         L56 assertion fails (the entry was dropped)
 */
#include <pthread.h>
#include <assert.h>

#define LOG_SLOTS 4

struct access_log {
  int cap;
  int used;
  int code[LOG_SLOTS];
};

struct access_log req_log;
pthread_mutex_t log_lock;

void log_open(struct access_log *lg, int cap)
{
  lg->used = 0;
  lg->cap = cap;
}

int log_append(struct access_log *lg, int status)
{
  int stored = 0;
  pthread_mutex_lock(&log_lock);
  if (lg->used < lg->cap) {
    lg->code[lg->used] = status;
    lg->used = lg->used + 1;
    stored = 1;
  }
  pthread_mutex_unlock(&log_lock);
  return stored;
}

void *handler(void *arg)
{
  int status = *(int *)arg;
  int ok = log_append(&req_log, status);
  assert(ok);
  return 0;
}

int main(void)
{
  pthread_t h;
  int status = 200;
  pthread_mutex_init(&log_lock, 0);
  pthread_create(&h, 0, handler, &status);
  log_open(&req_log, LOG_SLOTS);
  log_append(&req_log, 100);
  pthread_join(h, 0);
  return 0;
}
