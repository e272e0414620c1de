/* Two workers add to one counter 30 times each, without a lock. The replay tests drive
 * them with hand-written schedules of 60+ context switches: one that loses an update in
 * every iteration (the check fails) and one that never does (the check holds). Each
 * statement the schedules name is alone on its line. */
#include <pthread.h>
#include <assert.h>

#define ROUNDS 30

int shared = 0;

void *worker(void *arg)
{
  int step = *(int *)arg;
  for (int i = 0; i < ROUNDS; i++) {
    int seen = shared;          /* read */
    shared = seen + step;       /* write */
  }
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int one = 1;
  pthread_create(&a, 0, worker, &one);
  pthread_create(&b, 0, worker, &one);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(shared == 2 * ROUNDS);
  return 0;
}
