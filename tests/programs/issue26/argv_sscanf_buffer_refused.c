// seqloc-expect: refused sscanf
// `sscanf` of a buffer the program fills itself is no command-line input: what it reads
// is the program's own text, which seqloc does not model, so it is refused by name
// rather than taken as an arbitrary number.
#include <stdio.h>
#include <pthread.h>
#include <assert.h>

char line[8] = "2";

void *work(void *arg)
{
  (void)arg;
  return 0;
}

int main(void)
{
  pthread_t t;
  int n = 0;
  sscanf(line, "%d", &n);
  pthread_create(&t, 0, work, 0);
  pthread_join(t, 0);
  assert(n == 2);
  return 0;
}
