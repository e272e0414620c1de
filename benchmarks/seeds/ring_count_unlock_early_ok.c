/*
 * seeds/ring_count_unlock_early_ok.c -- fixed version of seeds/ring_count_unlock_early_ok.c (seqloc benchmark).
 *
 * lock released too early in a loop.
 * A producer pushes three readings into a four-slot ring buffer; a consumer
 * polls it three times and takes a reading when count > 0. ring_lock
 * guards slots, head, tail and count.
 *
 * Fix: The producer updates count before it releases ring_lock.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "ring_count_unlock_early_ok.c", 17, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define RING 4

int slots[RING];
int head = 0, tail = 0, count = 0;
int consumed = 0, last_reading = 0;
pthread_mutex_t ring_lock;

void *producer(void *arg)
{
  int i;
  (void)arg;
  for (i = 1; i <= 3; i++) {
    pthread_mutex_lock(&ring_lock);
    slots[tail] = 10 * i;
    tail = (tail + 1) % RING;
    count = count + 1;
    pthread_mutex_unlock(&ring_lock);
  }
  return 0;
}

void *consumer(void *arg)
{
  int k;
  (void)arg;
  for (k = 0; k < 3; k++) {
    pthread_mutex_lock(&ring_lock);
    if (count > 0) {
      last_reading = slots[head];
      head = (head + 1) % RING;
      count = count - 1;
      consumed = consumed + 1;
    }
    pthread_mutex_unlock(&ring_lock);
  }
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_mutex_init(&ring_lock, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  __VERIFIER_assert(count + consumed == 3);
  return 0;
}
