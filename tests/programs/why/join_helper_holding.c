/* `shutdown` clears `accepting` under the lock and then waits for the workers
 * through `wait_workers` while still holding it; a worker that has not yet seen
 * the flag blocks on the lock for ever. */
#include <pthread.h>
#include <assert.h>

#define N 2
pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
int accepting = 1;
int served = 0;
pthread_t workers[N];

void *worker(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&state_lock);
  if (accepting)
    served++;
  pthread_mutex_unlock(&state_lock);
  return 0;
}

void wait_workers(void)
{
  for (int i = 0; i < N; i++)
    pthread_join(workers[i], 0);
}

void shutdown_server(void)
{
  pthread_mutex_lock(&state_lock);
  accepting = 0;
  wait_workers();
  pthread_mutex_unlock(&state_lock);
}

int main(void)
{
  for (int i = 0; i < N; i++)
    pthread_create(&workers[i], 0, worker, 0);
  shutdown_server();
  assert(served <= N);
  return 0;
}
