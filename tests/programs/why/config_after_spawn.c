// The worker only reads the configuration; main loads it (inside config_load, line 17)
// only after it has started the worker (line 33). Faulty lines: 33, 34 (create the
// worker after loading the configuration).
#include <pthread.h>
#include <assert.h>

struct config {
  int limit;
  int verbose;
};

struct config cfg;
int sent;

void config_load(struct config *c) {
  c->verbose = 1;
  c->limit = 3;
}

void *worker(void *arg) {
  int want = 2;
  int n = 0;
  (void)arg;
  while (n < want && n < cfg.limit)
    n = n + 1;
  sent = n;
  assert(sent == want);
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  config_load(&cfg);
  pthread_join(w, 0);
  return 0;
}
