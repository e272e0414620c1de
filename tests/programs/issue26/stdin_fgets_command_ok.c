// seqloc-expect: no-failure
// `main` reads a command from standard input (any text: no line, a NUL, a digit, junk)
// that sets the step both workers add to `done`, two if the line is "2"; each worker's
// update is under the lock, so every run counts both.
#include <stdio.h>
#include <pthread.h>
#include <assert.h>

int done, step = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *work(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  done = done + step;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  char cmd[4];
  pthread_t a, b;
  if (fgets(cmd, sizeof cmd, stdin) == NULL)
    return 0;
  if (cmd[0] == '2' && (cmd[1] == '\n' || cmd[1] == '\0'))
    step = 2;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(done == 2 * step);
  return 0;
}
