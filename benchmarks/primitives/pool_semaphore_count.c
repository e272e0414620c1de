/*
 * primitives/pool_semaphore_count.c -- a semaphore made for two holders
 * guards a resource only one may use. The printer pool has one printer;
 * workers take a slot with sem_wait before they use it and give it back with
 * sem_post. The semaphore is initialised with 2, so two workers use the one
 * printer at once.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: wrong-count (a counting semaphore's initial value)
 * Faulty line: 42. sem_init must give the pool 1 slot, one per printer.
 *
 * Failing interleaving (1 context switch):
 *   worker A: L28 takes a slot, L29 reads in_use (0)          [switch 1]
 *   worker B: L28 takes the second slot, L29-L30 in_use = 1, L31 passes
 *   worker A: L30 in_use = 1 (lost update) or L31 sees 2: the check fails.
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t printers;
int in_use = 0;
int printed = 0;

void *worker(void *arg)
{
  int pages = *(int *)arg;
  sem_wait(&printers);
  int u = in_use;
  in_use = u + 1;
  assert(in_use == 1);
  printed = printed + pages;
  in_use = in_use - 1;
  sem_post(&printers);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int two = 2, three = 3;
  sem_init(&printers, 0, 2);
  pthread_create(&a, 0, worker, &two);
  pthread_create(&b, 0, worker, &three);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(printed == 5);
  sem_destroy(&printers);
  return 0;
}
