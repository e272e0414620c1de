// seqloc-expect: failure 16
// A bounded buffer of two slots with counting semaphores: `slots` counts free slots,
// `items` filled ones. The producer announces each item before it is in its slot, so
// the consumer may take a slot not yet written.
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>
#define N 2
int buf[N];
int total;
sem_t slots, items;
void *producer(void *arg) {
  for (int i = 0; i < 3; i++) {
    sem_wait(&slots);
    sem_post(&items);
    buf[i % N] = i + 1;
  }
  return 0;
}
void *consumer(void *arg) {
  int sum = 0;
  for (int i = 0; i < 3; i++) {
    sem_wait(&items);
    sum += buf[i % N];
    buf[i % N] = 0;
    sem_post(&slots);
  }
  total = sum;
  return 0;
}
int main(void) {
  sem_init(&slots, 0, N);
  sem_init(&items, 0, 0);
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  assert(total == 6);
  return 0;
}
