/* An uploader holds one of LIMIT slots while it sends. A finished upload gives its slot
 * back and wakes a sender waiting for one (lines 29-30); an aborted upload gives its slot
 * back without a word (line 38), so a sender that went to sleep on a full table sleeps
 * on while the slot stands free. */
#include <assert.h>
#include <pthread.h>

#define LIMIT 1

pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t slot_free = PTHREAD_COND_INITIALIZER;
int in_flight;
int sent;
int aborted;

void take_slot(void)
{
  pthread_mutex_lock(&table_lock);
  while (in_flight >= LIMIT)
    pthread_cond_wait(&slot_free, &table_lock);
  in_flight = in_flight + 1;
  assert(in_flight <= LIMIT);
  pthread_mutex_unlock(&table_lock);
}

void finish_upload(void)
{
  pthread_mutex_lock(&table_lock);
  in_flight = in_flight - 1;
  pthread_cond_signal(&slot_free);
  sent = sent + 1;
  pthread_mutex_unlock(&table_lock);
}

void abort_upload(void)
{
  pthread_mutex_lock(&table_lock);
  in_flight = in_flight - 1;
  aborted = aborted + 1;
  pthread_mutex_unlock(&table_lock);
}

void *uploader(void *arg)
{
  int bad = *(int *)arg;
  take_slot();
  if (bad)
    abort_upload();
  else
    finish_upload();
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int bad_a = 1, bad_b = 0;
  pthread_create(&a, 0, uploader, &bad_a);
  pthread_create(&b, 0, uploader, &bad_b);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
