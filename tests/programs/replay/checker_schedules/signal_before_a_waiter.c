/* The notifier signals once before the waiter exists (nobody to wake) and once while it
 * waits: a schedule's recorded wake-up must name the second signal, the one that chose. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
pthread_t w;
int ready;
int waited;

void *waiter(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  while (ready != 2) {
    waited = 1;
    pthread_cond_wait(&c, &m);
  }
  pthread_mutex_unlock(&m);
  assert(!waited);
  return 0;
}

void *notifier(void *arg)
{
  int i;
  (void)arg;
  for (i = 1; i <= 2; i++) {
    pthread_mutex_lock(&m);
    ready = i;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    if (i == 1)
      pthread_create(&w, 0, waiter, 0);
  }
  pthread_join(w, 0);
  return 0;
}

int main(void)
{
  pthread_t n;
  pthread_create(&n, 0, notifier, 0);
  pthread_join(n, 0);
  return 0;
}
