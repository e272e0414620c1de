/*
 * correct/early_return_ok.c -- fixed version of deadlock/early_return_keeps_lock.c (seqloc benchmark).
 *
 * a lock leaked on an error path. Two
 * clients store values through put_item, which rejects negative values.
 *
 * Fix: put_item releases the mutex on its error path too.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

pthread_mutex_t store_lock;
int store = 0;
int rejected = 0;

int put_item(int v)
{
  pthread_mutex_lock(&store_lock);
  if (v < 0) {
    rejected = rejected + 1;
    pthread_mutex_unlock(&store_lock);
    return -1;
  }
  store = store + v;
  pthread_mutex_unlock(&store_lock);
  return 0;
}

void *client_a(void *arg)
{
  int v = __VERIFIER_nondet_int();
  (void)arg;
  put_item(v);
  return 0;
}

void *client_b(void *arg)
{
  (void)arg;
  put_item(3);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_mutex_init(&store_lock, 0);
  pthread_create(&a, 0, client_a, 0);
  pthread_create(&b, 0, client_b, 0);
  pthread_join(b, 0);
  pthread_join(a, 0);
  return 0;
}
