/* Two threads each add up three readings, under a lock: six additions in all. */
#include <assert.h>
#include <pthread.h>

int readings[3] = {4, 7, 9};
int added;
int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *summer(void *arg) {
  int i, v;
  for (i = 0; i < 3; i++) {
    v = readings[i];
    pthread_mutex_lock(&m);
    total = total + v;
    added = added + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, summer, 0);
  pthread_create(&b, 0, summer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(added == 6);
  return 0;
}
