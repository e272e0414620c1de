/*
 * concbugs/histogram_lost_update.c -- data race (lost update). Two threads
 * classify four samples each into a shared three-bucket histogram without
 * any synchronisation.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (lost update)
 * Faulty line: 36. The bucket increment reads and writes hist[b] without a
 *   lock; when both threads hit the same bucket one increment can be lost.
 *   (The statement is not atomic: another thread may run between its read
 *   and its write.)
 *
 * Failing interleaving (4 context switches):
 *   main: L44,L45 create counters A (samples 1,4,2,6) and B (7,3,5,9);
 *         L46 join(A) blocks
 *   A:    i=0: b = 1, L36 reads hist[1] = 0                            [switch 1]
 *   B:    all four samples: hist[1] = 1, hist[0] = 1, hist[2] = 1, hist[0] = 2;
 *         B ends                                                       [switch 2]
 *   A:    L36 writes hist[1] = 1 (B's update lost), then the other three;
 *         A ends                                                       [switch 3]
 *   main: joins; L48 assertion fails (7 != 8)                          [switch 4]
 */
#include <pthread.h>
#include <assert.h>

int hist[3];
int samples_a[4] = {1, 4, 2, 6};
int samples_b[4] = {7, 3, 5, 9};

void *count_samples(void *arg)
{
  int *s = (int *)arg;
  int i, b;
  for (i = 0; i < 4; i++) {
    b = s[i] % 3;
    hist[b] = hist[b] + 1;
  }
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, count_samples, samples_a);
  pthread_create(&b, 0, count_samples, samples_b);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hist[0] + hist[1] + hist[2] == 8);
  return 0;
}
