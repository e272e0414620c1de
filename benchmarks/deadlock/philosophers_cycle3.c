/*
 * deadlock/philosophers_cycle3.c -- lock-order cycle among three threads.
 * Three philosophers share three forks (mutexes); philosopher i takes fork i,
 * then fork (i + 1) % 3, eats once and puts both down.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (3-thread lock-order cycle)
 * Faulty lines: 31, 32. Every philosopher takes its left fork first
 *   (L31) and then its right fork (L32), which closes the cycle
 *   0 -> 1 -> 2 -> 0. Taking the lower-numbered fork first breaks it.
 *
 * Deadlocking interleaving (3 context switches):
 *   main: L53 creates P0, P1, P2; L56 join(P0) blocks
 *   P0:   L31 takes fork 0                                             [switch 1]
 *   P1:   L31 takes fork 1                                             [switch 2]
 *   P2:   L31 takes fork 2, L32 blocks on fork 0                       [switch 3]
 *   P0's next step (L32) needs fork 1, P1's needs fork 2: all four threads
 *   are blocked, a deadlock.
 */
#include <pthread.h>

#define N 3

pthread_mutex_t fork_lock[N];
int meals[N];

void eat(int me)
{
  int left = me;
  int right = (me + 1) % N;
  pthread_mutex_lock(&fork_lock[left]);
  pthread_mutex_lock(&fork_lock[right]);
  meals[me] = meals[me] + 1;
  pthread_mutex_unlock(&fork_lock[right]);
  pthread_mutex_unlock(&fork_lock[left]);
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
