// seqloc-expect: no-failure
// A consumer takes the head of a small array queue and shifts the rest down with
// `memmove` (a variable count, overlapping ranges), a producer appends at the tail, both
// under the lock: whichever runs first, the queue ends as 2, 3, 4.
#include <pthread.h>
#include <string.h>
#include <assert.h>

int queue[4] = {1, 2, 3};
int count = 3;
int taken;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *consumer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&lock);
  int n = count;
  taken = queue[0];
  if (n > 1)
    memmove(queue, queue + 1, (n - 1) * sizeof(int));
  count = n - 1;
  pthread_mutex_unlock(&lock);
  return 0;
}

void *producer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&lock);
  queue[count] = 4;
  count = count + 1;
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void)
{
  pthread_t c, p;
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(c, 0);
  pthread_join(p, 0);
  assert(taken == 1);
  assert(count == 3);
  assert(queue[0] == 2 && queue[1] == 3 && queue[2] == 4);
  return 0;
}
