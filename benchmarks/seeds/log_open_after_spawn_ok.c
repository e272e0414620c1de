/*
 * seeds/log_open_after_spawn_ok.c -- fixed version of seeds/log_open_after_spawn_bad.c (seqloc benchmark).
 *
 * order violation. A request handler
 * records its status code in a shared in-memory access log; main opens the
 * log (gives it its capacity) and records its own entry. Every append is
 * made under log_lock.
 *
 * Fix: main opens the log before it starts the handler.
 *
 * Expected verdict: true (unreach-call)
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
  log_open(&req_log, LOG_SLOTS);
  pthread_create(&h, 0, handler, &status);
  log_append(&req_log, 100);
  pthread_join(h, 0);
  return 0;
}
