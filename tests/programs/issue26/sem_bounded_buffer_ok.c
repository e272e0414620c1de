// seqloc-expect: no-failure
// A bounded buffer of two slots with counting semaphores: each item is in its slot
// before `items` announces it, each slot emptied before `slots` frees it.
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
    buf[i % N] = i + 1;
    sem_post(&items);
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
