/*
 * stress/sort_swap_nested.c -- context switch inside nested loops. A sorter
 * bubble-sorts a four-element array through get/put helpers that each take
 * the array mutex; a checker sums the array under the mutex.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation
 * Faulty lines: 53, 54. A swap is two separately locked writes (53, 54); in
 *   between, the array holds one value twice. The whole compare-and-swap must
 *   be one critical section. The array 1, 2, 4, 3 needs only one swap, in the
 *   third iteration of the inner loop (i = 0, j = 2), so the failure needs a
 *   context switch inside that inner iteration.
 *
 * Failing interleaving (2 context switches):
 *   main: L77,L78 create sorter S and checker C; L79 join(S) blocks
 *   S:    i=0: j=0 and j=1 compare, no swap; j=2: L50 x = 4, L51 y = 3,
 *         L53 a[2] = 3                                                 [switch 1]
 *   C:    L67 s = 1 + 2 + 3 + 3 = 9; L69 fails (9 != 10)               [switch 2]
 */
#include <pthread.h>
#include <assert.h>

#define N 4

int a[N] = {1, 2, 4, 3};
pthread_mutex_t am;

int get(int k)
{
  int v;
  pthread_mutex_lock(&am);
  v = a[k];
  pthread_mutex_unlock(&am);
  return v;
}

void put(int k, int v)
{
  pthread_mutex_lock(&am);
  a[k] = v;
  pthread_mutex_unlock(&am);
}

void *sorter(void *arg)
{
  int i, j, x, y;
  (void)arg;
  for (i = 0; i < N - 1; i++) {
    for (j = 0; j < N - 1 - i; j++) {
      x = get(j);
      y = get(j + 1);
      if (x > y) {
        put(j, y);
        put(j + 1, x);
      }
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
