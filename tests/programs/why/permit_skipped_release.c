/* Two uploaders share one network permit. An uploader whose file is empty
 * bails out early; it records the return in the ledger but calls the
 * bookkeeping helper instead of `permit_return`, which also hands the permit on. */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t permit;
pthread_mutex_t ledger_lock = PTHREAD_MUTEX_INITIALIZER;
int returned = 0;
int sizes[2] = {0, 7};
int sent = 0;

void note_return(int who)
{
  pthread_mutex_lock(&ledger_lock);
  returned = returned + 1 + who;
  pthread_mutex_unlock(&ledger_lock);
}

void permit_return(int who)
{
  note_return(who);
  sem_post(&permit);
}

void *uploader(void *arg)
{
  int who = *(int *)arg;
  sem_wait(&permit);
  if (sizes[who] == 0) {
    note_return(who);
    return 0;
  }
  sent = sent + sizes[who];
  permit_return(who);
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int ids[2] = {0, 1};
  sem_init(&permit, 0, 1);
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, uploader, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(sent == 7);
  return 0;
}
