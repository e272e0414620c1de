/*
 * correct/tally_lock_ok.c -- fixed version of
 * primitives/tally_trylock_unchecked.c: each counter waits for the tally's
 * mutex.
 *
 * Expected verdict: true (unreach-call)
 */#include <pthread.h>
#include <assert.h>

pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
int tally = 0;

struct votes {
  int count;
};

void *counter(void *arg)
{
  struct votes *v = arg;
  pthread_mutex_lock(&tally_lock);
  int t = tally;
  tally = t + v->count;
  pthread_mutex_unlock(&tally_lock);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  struct votes va = {3}, vb = {2};
  pthread_create(&a, 0, counter, &va);
  pthread_create(&b, 0, counter, &vb);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(tally == 5);
  return 0;
}
