/*
 * seeds/conn_pool_counts_split_bad.c -- multi-variable atomicity violation.
 * A connection pool keeps an idle and an active count, both guarded by the
 * pool's mutex, with idle + active == POOL_SIZE between critical sections.
 * A client checks a connection out and back in; a health monitor checks the
 * invariant. The pool is passed to both threads as their argument.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (two variables)
 * Faulty lines: 35, 37. pool_checkout decrements idle and increments active
 *   in two critical sections: it releases the mutex (L35) while it "connects"
 *   and takes it again (L37). Both updates belong in one critical section.
 *
 * Failing interleaving (2 context switches):
 *   main: L78,L79 create client C and monitor M; L80 join(C) blocks
 *   C:    L54 pool_checkout: lock, L34 idle = 2, L35 unlock  [switch 1]
 *   M:    lock, L65 seen = 2 + 0, unlock; L67 fails (2 != 3) [switch 2]
 */
#include <pthread.h>
#include <assert.h>

#define POOL_SIZE 3

struct conn_pool {
  pthread_mutex_t lock;
  int idle;
  int active;
};

int pool_checkout(struct conn_pool *p, int backend)
{
  int handle;
  pthread_mutex_lock(&p->lock);
  p->idle = p->idle - 1;
  pthread_mutex_unlock(&p->lock);
  handle = 100 * backend + 1;
  pthread_mutex_lock(&p->lock);
  p->active = p->active + 1;
  pthread_mutex_unlock(&p->lock);
  return handle;
}

void pool_checkin(struct conn_pool *p)
{
  pthread_mutex_lock(&p->lock);
  p->active = p->active - 1;
  p->idle = p->idle + 1;
  pthread_mutex_unlock(&p->lock);
}

void *client(void *arg)
{
  struct conn_pool *p = arg;
  int h = pool_checkout(p, 7);
  if (h > 0)
    pool_checkin(p);
  return 0;
}

void *monitor(void *arg)
{
  struct conn_pool *p = arg;
  int seen;
  pthread_mutex_lock(&p->lock);
  seen = p->idle + p->active;
  pthread_mutex_unlock(&p->lock);
  assert(seen == POOL_SIZE);
  return 0;
}

int main(void)
{
  struct conn_pool pool;
  pthread_t c, m;
  pthread_mutex_init(&pool.lock, 0);
  pool.idle = POOL_SIZE;
  pool.active = 0;
  pthread_create(&c, 0, client, &pool);
  pthread_create(&m, 0, monitor, &pool);
  pthread_join(c, 0);
  pthread_join(m, 0);
  return 0;
}
