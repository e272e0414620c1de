/*
 * correct/philosophers_ok.c -- fixed version of deadlock/philosophers_cycle3.c (seqloc benchmark).
 *
 * lock-order cycle among three threads.
 * Three philosophers share three forks (mutexes); philosopher i takes fork i,
 * then fork (i + 1) % 3, eats once and puts both down.
 *
 * Fix: Every philosopher takes the lower-numbered of its two forks first, so no lock cycle can form.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

#define N 3

pthread_mutex_t fork_lock[N];
int meals[N];

void eat(int me)
{
  int left = me;
  int right = (me + 1) % N;
  int low = left < right ? left : right;
  int high = left < right ? right : left;
  pthread_mutex_lock(&fork_lock[low]);
  pthread_mutex_lock(&fork_lock[high]);
  meals[me] = meals[me] + 1;
  pthread_mutex_unlock(&fork_lock[high]);
  pthread_mutex_unlock(&fork_lock[low]);
}

void *philosopher(void *arg)
{
  eat(*(int *)arg);
  return 0;
}

int main(void)
{
  pthread_t th[N];
  int ids[N];
  int i;
  for (i = 0; i < N; i++)
    pthread_mutex_init(&fork_lock[i], 0);
  for (i = 0; i < N; i++) {
    ids[i] = i;
    pthread_create(&th[i], 0, philosopher, &ids[i]);
  }
  for (i = 0; i < N; i++)
    pthread_join(th[i], 0);
  return 0;
}
