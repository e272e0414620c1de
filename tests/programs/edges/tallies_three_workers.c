/* Three workers each add to an unprotected tally and to a locked one: the unprotected
 * update loses counts. Localizing it takes a few seconds, long enough for a time limit
 * to fall into every stage of the run. */
#include <pthread.h>
#include <assert.h>
int loose = 0, guarded = 0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
void *tally(void *arg) {
  for (int round = 0; round < 3; round++) {
    loose = loose + 1;
    pthread_mutex_lock(&lock);
    guarded = guarded + 1;
    pthread_mutex_unlock(&lock);
  }
  return 0;
}
int main(void) {
  pthread_t w[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&w[i], 0, tally, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(w[i], 0);
  assert(guarded == 9);
  assert(loose == 9);
  return 0;
}
