/* Two clerks sell from a stock of one ticket under a lock; the guard lets a clerk sell
   only while one is left, so at most one sells. */
#include <assert.h>
#include <pthread.h>

int tickets = 1;
int sold[2];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *clerk(void *arg) {
  int who = *(int *)arg;
  pthread_mutex_lock(&m);
  if (tickets > 0) {
    tickets = tickets - 1;
    sold[who] = 1;
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  int ida = 0, idb = 1;
  pthread_create(&a, 0, clerk, &ida);
  pthread_create(&b, 0, clerk, &idb);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(sold[0] + sold[1] <= 1);
  return 0;
}
