/*
 * correct/gate_broadcast_ok.c -- fixed version of
 * primitives/signal_one_of_two_waiters.c: opening the gate wakes every
 * waiter with pthread_cond_broadcast.
 *
 * Expected verdict: true (no-deadlock)
 */#include <pthread.h>

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
  pthread_cond_broadcast(&gate_open);
  pthread_mutex_unlock(&gate_lock);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
