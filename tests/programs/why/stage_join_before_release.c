// A pipeline: the reader stage waits (in a predicate loop) until the parser stage
// releases it; the parser joins the reader (line 28) inside its critical section and
// only then releases it (lines 29-31). The join holds the wake-up back: a deadlock.
// Faulty line: 28 (the join belongs after the release).
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t go_cv = PTHREAD_COND_INITIALIZER;
int go;
int records;
pthread_t reader_thread;

void *reader(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  while (!go)
    pthread_cond_wait(&go_cv, &m);
  records = records + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *parser(void *arg) {
  (void)arg;
  pthread_create(&reader_thread, 0, reader, 0);
  pthread_mutex_lock(&m);
  records = 10;
  pthread_join(reader_thread, 0);
  go = 1;
  pthread_cond_signal(&go_cv);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, parser, 0);
  pthread_join(p, 0);
  return 0;
}
