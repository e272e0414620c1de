/*
 * seeds/sensor_queue_full_keeps_lock_bad.c -- a lock leaked on an error path.
 * Two sensors push two readings each into a bounded queue (capacity 2); a
 * collector pops up to four readings. queue_push refuses a reading when the
 * queue is full and counts it as dropped.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (missing unlock on an early return)
 * Faulty line: 41. The error return for a full queue (L41) leaves the
 *   queue mutex locked; the sensor's next push and the collector block on it
 *   for ever. The mutex must be released before returning.
 *
 * Deadlocking interleaving (3 context switches):
 *   main: L89 create sensors S0, S1, L91 collector C; L93 join(S0) blocks
 *   S1:   L67 pushes two readings (count = 2); S1 ends              [switch 1]
 *   S0:   L38 locks, L39 queue full, L41 returns -1 holding the mutex;
 *         second push: L38 blocks on the mutex it holds               [switch 2]
 *   C:    L76 queue_pop: L52 blocks on the mutex                  [switch 3]
 *   main waits for S0; S0 and C wait for a mutex nobody will release.
 */
#include <pthread.h>

#define CAP 2
#define SENSORS 2

struct queue {
  pthread_mutex_t lock;
  int items[CAP];
  int count;
  int dropped;
};

struct queue readings;
int collected = 0;

static int queue_push(struct queue *q, int v)
{
  pthread_mutex_lock(&q->lock);
  if (q->count == CAP) {
    q->dropped = q->dropped + 1;
    return -1;
  }
  q->items[q->count] = v;
  q->count = q->count + 1;
  pthread_mutex_unlock(&q->lock);
  return 0;
}

static int queue_pop(struct queue *q, int *v)
{
  int ok = 0;
  pthread_mutex_lock(&q->lock);
  if (q->count > 0) {
    q->count = q->count - 1;
    *v = q->items[q->count];
    ok = 1;
  }
  pthread_mutex_unlock(&q->lock);
  return ok;
}

void *sensor(void *arg)
{
  int id = *(int *)arg;
  int i;
  for (i = 0; i < 2; i++)
    queue_push(&readings, 10 * id + i);
  return 0;
}

void *collector(void *arg)
{
  int i, v;
  (void)arg;
  for (i = 0; i < 4; i++)
    if (queue_pop(&readings, &v))
      collected = collected + v;
  return 0;
}

int main(void)
{
  pthread_t s[SENSORS], c;
  int ids[SENSORS];
  int i;
  pthread_mutex_init(&readings.lock, 0);
  for (i = 0; i < SENSORS; i++) {
    ids[i] = i + 1;
    pthread_create(&s[i], 0, sensor, &ids[i]);
  }
  pthread_create(&c, 0, collector, 0);
  for (i = 0; i < SENSORS; i++)
    pthread_join(s[i], 0);
  pthread_join(c, 0);
  return 0;
}
