// seqloc-expect: no-failure
// A pool of two connections guarded by a counting semaphore; every way out of the worker
// gives its connection back, so all three workers are served.
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>
sem_t pool;
int served;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  long request = (long)arg;
  sem_wait(&pool);
  if (request < 0) {
    sem_post(&pool);
    return 0;
  }
  pthread_mutex_lock(&m);
  served++;
  pthread_mutex_unlock(&m);
  sem_post(&pool);
  return 0;
}
int main(void) {
  sem_init(&pool, 0, 2);
  pthread_t t[3];
  pthread_create(&t[0], 0, worker, (void *)-1L);
  pthread_create(&t[1], 0, worker, (void *)-2L);
  pthread_create(&t[2], 0, worker, (void *)3L);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  int left;
  sem_getvalue(&pool, &left);
  assert(left == 2 && served == 1);
  return 0;
}
