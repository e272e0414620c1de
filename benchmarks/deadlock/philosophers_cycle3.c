/*
 * deadlock/philosophers_cycle3.c -- lock-order cycle among three threads.
 * Three philosophers share three forks (mutexes); philosopher i takes fork i,
 * then fork (i + 1) % 3, eats once and puts both down.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (3-thread lock-order cycle)
 * Faulty lines: 32, 33. Every philosopher takes its left fork first
 *   (32) and then its right fork (33), which closes the cycle
 *   0 -> 1 -> 2 -> 0. Taking the lower-numbered fork first breaks it.
 *
 * Deadlocking interleaving (5 context switches):
 *   main: 54 creates P0, P1, P2; 57 join(P0) blocks
 *   P0:   32 takes fork 0                                                [switch 1]
 *   P1:   32 takes fork 1                                                [switch 2]
 *   P2:   32 takes fork 2, 33 blocks on fork 0                         [switch 3]
 *   P0:   33 blocks on fork 1                                            [switch 4]
 *   P1:   33 blocks on fork 2                                            [switch 5]
 *   All four threads are blocked: deadlock.
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
