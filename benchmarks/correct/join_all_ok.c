/*
 * correct/join_all_ok.c -- fixed version of concbugs/partial_join_loop.c (seqloc benchmark).
 *
 * order violation (result read before the
 * thread that writes it is joined). Three workers each write one partial
 * result; main joins them and adds the partials up.
 *
 * Fix: main joins all N workers before summing.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

#define N 3

int partial[N];

void *work(void *arg)
{
  int k = *(int *)arg;
  partial[k] = (k + 1) * 10;
  return 0;
}

int main(void)
{
  pthread_t th[N];
  int ids[N];
  int i, total = 0;
  for (i = 0; i < N; i++) {
    ids[i] = i;
    pthread_create(&th[i], 0, work, &ids[i]);
  }
  for (i = 0; i < N; i++)
    pthread_join(th[i], 0);
  for (i = 0; i < N; i++)
    total = total + partial[i];
  assert(total == 60);
  return 0;
}
