/*
 * correct/sort_swap_ok.c -- fixed version of stress/sort_swap_nested.c (seqloc benchmark).
 *
 * context switch inside nested loops. A sorter
 * bubble-sorts a four-element array through get/put helpers that each take
 * the array mutex; a checker sums the array under the mutex.
 *
 * Fix: The compare-and-swap of each inner iteration is one critical section.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

#define N 4

int a[N] = {1, 2, 4, 3};
pthread_mutex_t am;

void *sorter(void *arg)
{
  int i, j, x, y;
  (void)arg;
  for (i = 0; i < N - 1; i++) {
    for (j = 0; j < N - 1 - i; j++) {
      pthread_mutex_lock(&am);
      x = a[j];
      y = a[j + 1];
      if (x > y) {
        a[j] = y;
        a[j + 1] = x;
      }
      pthread_mutex_unlock(&am);
    }
  }
  return 0;
}

void *checker(void *arg)
{
  int k, s = 0;
  (void)arg;
  pthread_mutex_lock(&am);
  for (k = 0; k < N; k++)
    s = s + a[k];
  pthread_mutex_unlock(&am);
  assert(s == 1 + 2 + 3 + 4);
  return 0;
}

int main(void)
{
  pthread_t s, c;
  pthread_mutex_init(&am, 0);
  pthread_create(&s, 0, sorter, 0);
  pthread_create(&c, 0, checker, 0);
  pthread_join(s, 0);
  pthread_join(c, 0);
  return 0;
}
