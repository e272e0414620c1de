// seqloc-expect: failure 14
// GCC accepts `$` in identifiers (generated code, such as SV-COMP's weak-memory tasks,
// uses it for buffered copies). The writer publishes `flag$ready` before it has written
// `data$value`, so the reader can see the flag and read the old value.
#include <pthread.h>
#include <assert.h>

int data$value;
int flag$ready;

void *writer(void *arg)
{
  (void)arg;
  flag$ready = 1;
  data$value = 42;
  return 0;
}

void *reader(void *arg)
{
  int $seen;
  (void)arg;
  if (flag$ready) {
    $seen = data$value;
    assert($seen == 42);
  }
  return 0;
}

int main(void)
{
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
