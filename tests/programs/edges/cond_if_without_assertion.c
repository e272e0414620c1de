// An `if`-guarded condition wait (CERT CON36-C) in a program with no assertion and no
// error call. A spurious wake-up, which seqloc models at such a wait, runs on with the
// predicate false: no assertion can fail then, and no thread blocks for ever, so the
// program is proved under every property (it was UNKNOWN while spurious wake-ups were not
// modelled).
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int posted;
int taken;

void *executor(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  if (!posted)
    pthread_cond_wait(&cv, &m);
  taken = posted;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t e;
  pthread_create(&e, 0, executor, 0);
  pthread_mutex_lock(&m);
  posted = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  pthread_join(e, 0);
  return 0;
}
