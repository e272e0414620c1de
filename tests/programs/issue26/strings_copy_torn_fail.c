// seqloc-expect: failure 22
// `main` copies the status string while a thread renames it, without the lock: the copy
// can be torn, the first letters of one name and the rest of the other ("bdle").
#include <string.h>
#include <pthread.h>
#include <assert.h>

char status[8] = "idle";

void *rename_status(void *arg)
{
  (void)arg;
  strcpy(status, "busy");
  return 0;
}

int main(void)
{
  pthread_t t;
  char copy[8];
  pthread_create(&t, 0, rename_status, 0);
  strcpy(copy, status);
  pthread_join(t, 0);
  assert(strlen(copy) == 4);
  assert(copy[0] == 'i' || strncmp(copy, "busy", 4) == 0);
  assert(copy[0] == 'b' || strcmp(copy, "idle") == 0);
  return 0;
}
