/*
 * seeds/config_ready_before_pointer_ok.c -- fixed version of seeds/config_ready_before_pointer_bad.c (seqloc benchmark).
 *
 * order violation. A loader
 * thread builds the server configuration and publishes it through a global
 * pointer and a "ready" flag; two request workers size their connection
 * budget from the configuration once the flag is up (defaults before).
 *
 * Fix: publish_config stores the configuration pointer before it raises config_ready.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "config_ready_before_pointer_ok.c", 17, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define WORKERS 2

struct config {
  int max_conns;
  int timeout_ms;
  int log_level;
};

struct config config_storage;
struct config *current_config = 0;  /* the configuration in use */
int config_ready = 0;               /* set once current_config may be used */
int conn_budget[WORKERS];

static void publish_config(struct config *c)
{
  current_config = c;
  config_ready = 1;
}

void *loader(void *arg)
{
  struct config *c = &config_storage;
  (void)arg;
  c->max_conns = 8;
  c->timeout_ms = 250;
  c->log_level = 2;
  publish_config(c);
  return 0;
}

void *worker(void *arg)
{
  int id = *(int *)arg;
  struct config *c;
  if (!config_ready) {
    conn_budget[id] = 1;            /* defaults until the configuration is loaded */
    return 0;
  }
  c = current_config;
  __VERIFIER_assert(c != 0);
  conn_budget[id] = c->max_conns / WORKERS;
  return 0;
}

int main(void)
{
  pthread_t ld, w[WORKERS];
  int ids[WORKERS];
  int i;
  pthread_create(&ld, 0, loader, 0);
  for (i = 0; i < WORKERS; i++) {
    ids[i] = i;
    pthread_create(&w[i], 0, worker, &ids[i]);
  }
  pthread_join(ld, 0);
  for (i = 0; i < WORKERS; i++)
    pthread_join(w[i], 0);
  return 0;
}
