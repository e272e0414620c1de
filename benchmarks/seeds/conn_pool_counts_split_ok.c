/*
 * seeds/conn_pool_counts_split_ok.c -- fixed version of seeds/conn_pool_counts_split_bad.c (seqloc benchmark).
 *
 * multi-variable atomicity violation.
 * A connection pool keeps an idle and an active count, both guarded by the
 * pool's mutex, with idle + active == POOL_SIZE between critical sections.
 * A client checks a connection out and back in; a health monitor checks the
 * invariant. The pool is passed to both threads as their argument.
 *
 * Fix: pool_checkout keeps the pool's mutex from the idle decrement to the active
 * increment (one critical section).
 *
 * Expected verdict: true (unreach-call)
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
  handle = 100 * backend + 1;
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
