/*
 * seeds/worker_stop_join_holding_registry_bad.c -- a join while holding a mutex the
 * joined thread needs. Two workers run up to three jobs each, checking their
 * stop flag under registry_lock, and deregister themselves (active - 1,
 * under registry_lock) when they leave; a manager thread stops and reaps
 * them one by one through stop_worker.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (join while holding a lock)
 * Faulty lines: 60, 61. stop_worker joins the worker (L60) before it
 *   releases registry_lock (L61); the worker needs registry_lock to see its
 *   stop flag and to deregister, so it can never end. The unlock must come
 *   before the join.
 *
 * Deadlocking interleaving (3 context switches):
 *   main: L83 create workers W0, W1, L85 manager M; L86 join(M) blocks
 *   M:    L69 stop_worker(W0): L58 lock, L59 stop = 1, L60 join(W0) blocks [switch 1]
 *   W0:   L42 blocks on registry_lock                           [switch 2]
 *   W1:   L42 blocks on registry_lock                           [switch 3]
 *   main waits for M, M for W0, both workers for the mutex M holds.
 */
#include <pthread.h>

#define WORKERS 2

struct worker {
  pthread_t tid;
  int id;
  int stop;                     /* guarded by registry_lock */
  int jobs;
};

pthread_mutex_t registry_lock;  /* guards active and every worker's stop flag */
int active = 0;
struct worker pool[WORKERS];

void *worker_main(void *arg)
{
  struct worker *w = arg;
  int i;
  for (i = 0; i < 3; i++) {
    pthread_mutex_lock(&registry_lock);
    if (w->stop) {
      pthread_mutex_unlock(&registry_lock);
      break;
    }
    pthread_mutex_unlock(&registry_lock);
    w->jobs = w->jobs + 1;
  }
  pthread_mutex_lock(&registry_lock);
  active = active - 1;
  pthread_mutex_unlock(&registry_lock);
  return 0;
}

static void stop_worker(struct worker *w)
{
  pthread_mutex_lock(&registry_lock);
  w->stop = 1;
  pthread_join(w->tid, 0);
  pthread_mutex_unlock(&registry_lock);
}

void *manager(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < WORKERS; i++)
    stop_worker(&pool[i]);
  return 0;
}

int main(void)
{
  pthread_t mg;
  int i;
  pthread_mutex_init(&registry_lock, 0);
  active = WORKERS;
  for (i = 0; i < WORKERS; i++) {
    pool[i].id = i;
    pool[i].stop = 0;
    pool[i].jobs = 0;
    pthread_create(&pool[i].tid, 0, worker_main, &pool[i]);
  }
  pthread_create(&mg, 0, manager, 0);
  pthread_join(mg, 0);
  return 0;
}
