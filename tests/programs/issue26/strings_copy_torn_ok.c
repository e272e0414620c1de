// seqloc-expect: no-failure
// `main` copies the status string while a thread renames it, both under the lock: the
// copy is always one whole name, "idle" or "busy", never a mix of the two.
#include <string.h>
#include <pthread.h>
#include <assert.h>

char status[8] = "idle";
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *rename_status(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&m);
  strcpy(status, "busy");
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t t;
  char copy[8];
  pthread_create(&t, 0, rename_status, 0);
  pthread_mutex_lock(&m);
  strcpy(copy, status);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(strlen(copy) == 4);
  assert(copy[0] == 'i' || strncmp(copy, "busy", 4) == 0);
  assert(copy[0] == 'b' || strcmp(copy, "idle") == 0);
  return 0;
}
