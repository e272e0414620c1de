/*
 * seeds/ring_count_unlock_early_bad.c -- lock released too early in a loop.
 * A producer pushes three readings into a four-slot ring buffer; a consumer
 * polls it three times and takes a reading when count > 0. ring_lock
 * guards slots, head, tail and count.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (critical section ends one statement too soon)
 * Faulty lines: 45, 46. In the producer's loop body the unlock (L45) comes
 *   before the count update (L46), so count = count + 1 runs unprotected and
 *   can overwrite the consumer's count = count - 1. The unlock belongs after
 *   L46.
 *
 * Failing interleaving (4 context switches):
 *   main: L72,L73 create producer P and consumer C; L74 join(P) blocks
 *   P:    i = 1: L43 push, L45 unlock, L46 count = 1;
 *         i = 2: L43 push, L45 unlock, L46 reads count (1)   [switch 1]
 *   C:    k = 0: L57 count > 0, L58 take a reading, L60 count = 0, consumed = 1;
 *         k = 1, 2: count is 0; C ends                       [switch 2]
 *   P:    L46 count = 2; i = 3: count = 3; P ends            [switch 3]
 *   main: joins; L76 fails (3 + 1 != 3)                      [switch 4]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "ring_count_unlock_early_bad.c", 27, "reach_error"); }
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
    pthread_mutex_unlock(&ring_lock);
    count = count + 1;
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
