/*
 * primitives/signal_one_of_two_waiters.c -- a start gate opened with a
 * signal where every waiter must wake. Two workers wait on the gate's
 * condition variable until main opens it; main sets the flag and signals,
 * which wakes at most one of them: the other waits for ever.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: lost-signal (signal instead of broadcast)
 * Faulty line: 44. Opening the gate concerns every waiter:
 *   pthread_cond_broadcast must wake them all.
 *
 * Deadlocking interleaving (3 context switches):
 *   main:     L40-L41 create both workers                         [switch 1]
 *   worker A: L29-L31 waits on the gate                           [switch 2]
 *   worker B: L29-L31 waits on the gate                           [switch 3]
 *   main:     L42-L45 opens the gate and signals: A wakes, runs, ends; B
 *             waits for ever and main blocks joining it.
 */
#include <pthread.h>

pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t gate_open = PTHREAD_COND_INITIALIZER;
int open_flag = 0;
int started = 0;

void *worker(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&gate_lock);
  while (!open_flag)
    pthread_cond_wait(&gate_open, &gate_lock);
  started = started + 1;
  pthread_mutex_unlock(&gate_lock);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_mutex_lock(&gate_lock);
  open_flag = 1;
  pthread_cond_signal(&gate_open);
  pthread_mutex_unlock(&gate_lock);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
