/*
 * correct/pool_semaphore_ok.c -- fixed version of
 * primitives/pool_semaphore_count.c: the semaphore has one slot for the one
 * printer.
 *
 * Expected verdict: true (unreach-call)
 */#include <pthread.h>
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
  sem_init(&printers, 0, 1);
  pthread_create(&a, 0, worker, &two);
  pthread_create(&b, 0, worker, &three);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(printed == 5);
  sem_destroy(&printers);
  return 0;
}
