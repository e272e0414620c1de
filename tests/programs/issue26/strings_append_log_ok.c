// seqloc-expect: no-failure
// Two workers append their tag to a shared log with `strcat` (the tag first copied into a
// local buffer with `strncpy`, which pads it with NULs), each under the lock: the log
// ends with both tags, in either order.
#include <pthread.h>
#include <string.h>
#include <assert.h>

char log_text[16] = "[";
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
  long id = (long)arg;
  char tag[3];
  strncpy(tag, id ? "b" : "a", sizeof tag);
  assert(tag[1] == 0 && tag[2] == 0);
  pthread_mutex_lock(&lock);
  strcat(log_text, tag);
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void)
{
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(strlen(log_text) == 3 && log_text[0] == '[');
  assert(strcmp(log_text, "[ab") == 0 || strcmp(log_text, "[ba") == 0);
  return 0;
}
