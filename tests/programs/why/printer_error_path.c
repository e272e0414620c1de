/* A printer is shared through a binary semaphore. On a paper jam the job calls
 * printer_free (line 36), which clears the owner *and* posts the semaphore, and then
 * leaves through the common exit, which posts it again: two posts for one wait, and two
 * jobs own the printer at once. The jam path meant only to clear the owner. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

struct printer {
  sem_t free;
  int owner;
  int pages;
  int jams;
};

struct printer prn;

void printer_free(struct printer *p)
{
  p->owner = -1;
  sem_post(&p->free);
}

int print_job(struct printer *p, int id, int pages)
{
  int rc = 0;
  sem_wait(&p->free);
  assert(p->owner == -1);
  p->owner = id;
  if (pages > 2) {
    p->jams = p->jams + 1;
    printer_free(p);
    rc = -1;
  } else {
    p->pages = p->pages + pages;
    p->owner = -1;
  }
  sem_post(&p->free);
  return rc;
}

void *job(void *arg)
{
  int id = *(int *)arg;
  print_job(&prn, id, id == 1 ? 3 : 1);
  print_job(&prn, id, 1);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int ida = 1, idb = 2;
  sem_init(&prn.free, 0, 0);
  prn.owner = 5;
  printer_free(&prn);
  pthread_create(&a, 0, job, &ida);
  pthread_create(&b, 0, job, &idb);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
