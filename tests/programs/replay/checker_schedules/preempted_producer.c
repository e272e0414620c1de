/* A producer preempted for good between two iterations: the consumer then empties the
 * queue and underflows. The checker's schedule must stop the producer where it was
 * preempted; "until end" would let a replay fill the queue first. */
#include <pthread.h>
extern void abort(void);
void reach_error(void) {}

static int count = 0;
static int ready = 0;
pthread_mutex_t m;

void *producer(void *arg)
{
  for (int i = 0; i < 4; i++) {
    pthread_mutex_lock(&m);
    count = count + 1;
    ready = 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg)
{
  for (int i = 0; i < 4; i++) {
    pthread_mutex_lock(&m);
    if (ready) {
      if (count == 0) {
        ERROR: {reach_error(); abort();}
      }
      count = count - 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_mutex_init(&m, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
