// seqloc-expect: no-failure
// GCC accepts `$` in identifiers (generated code, such as SV-COMP's weak-memory tasks,
// uses it for buffered copies). The writer writes `data$value` before it publishes
// `flag$ready`, so a reader that sees the flag reads the new value.
#include <pthread.h>
#include <assert.h>

int data$value;
int flag$ready;

void *writer(void *arg)
{
  (void)arg;
  data$value = 42;
  flag$ready = 1;
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
