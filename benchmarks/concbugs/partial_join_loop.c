/*
 * concbugs/partial_join_loop.c -- order violation (result read before the
 * thread that writes it is joined). Three workers each write one partial
 * result; main joins them and adds the partials up.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation
 * Faulty line: 41. The join loop stops one worker short (N - 1), so main can
 *   read partial[2] before worker 2 has written it.
 *
 * Failing interleaving (3 context switches):
 *   main: L39 creates workers T0, T1, T2; L41,L42 join(T0) blocks
 *   T0:   L28 partial[0] = 10; T0 ends                                 [switch 1]
 *   T1:   L28 partial[1] = 20; T1 ends                                 [switch 2]
 *   main: joins T1, leaves the loop, L44 total = 10 + 20 + 0;
 *         L45 fails (30 != 60)                                         [switch 3]
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
  for (i = 0; i < N - 1; i++)
    pthread_join(th[i], 0);
  for (i = 0; i < N; i++)
    total = total + partial[i];
  assert(total == 60);
  return 0;
}
