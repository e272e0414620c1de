// A lease holder tests, under the lease's lock, whether the lease has expired,
// lets go of the lock and then uses the token. The reaper expires the lease and
// clears the token under the lock in between. The holder's section ends too early
// (line 31): the use at line 34 belongs inside it.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct lease {
  pthread_mutex_t mu;
  int expired;
  int *token;
};

static struct lease l;
static int uses;

static void reap(struct lease *p)
{
  pthread_mutex_lock(&p->mu);
  p->expired = 1;
  p->token = 0;
  pthread_mutex_unlock(&p->mu);
}

static int use_lease(struct lease *p)
{
  int gone;
  pthread_mutex_lock(&p->mu);
  gone = p->expired;
  pthread_mutex_unlock(&p->mu);
  if (gone)
    return 0;
  assert(p->token != 0);
  return *p->token;
}

void *holder(void *arg)
{
  uses += use_lease(arg);
  return 0;
}

void *reaper(void *arg)
{
  reap(arg);
  return 0;
}

int main(void)
{
  pthread_t h, r;
  static int value = 7;
  pthread_mutex_init(&l.mu, 0);
  l.token = &value;
  pthread_create(&h, 0, holder, &l);
  pthread_create(&r, 0, reaper, &l);
  pthread_join(h, 0);
  pthread_join(r, 0);
  return 0;
}
