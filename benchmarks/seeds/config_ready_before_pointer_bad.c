/*
 * seeds/config_ready_before_pointer_bad.c -- order violation. A loader
 * thread builds the server configuration and publishes it through a global
 * pointer and a "ready" flag; two request workers size their connection
 * budget from the configuration once the flag is up (defaults before).
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation (flag published before the pointer)
 * Faulty lines: 42, 43. publish_config raises config_ready (L42) before
 *   it stores the configuration pointer (L43); a worker that sees the flag
 *   can read the pointer while it is still 0. The pointer must be stored
 *   first, the flag raised last.
 *
 * Failing interleaving (2 context switches):
 *   main: L76 create loader L, L79 workers W0, W1; L81 join(L) blocks
 *   L:    L50-L52 fill the configuration, L42 config_ready = 1    [switch 1]
 *   W0:   L61 config_ready is 1, L65 c = current_config = 0;
 *         L66 fails                                              [switch 2]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "config_ready_before_pointer_bad.c", 24, "reach_error"); }
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
  config_ready = 1;
  current_config = c;
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
