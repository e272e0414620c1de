/*
 * correct/histogram_ok.c -- fixed version of concbugs/histogram_lost_update.c (seqloc benchmark).
 *
 * data race (lost update). Two threads
 * classify four samples each into a shared three-bucket histogram without
 * any synchronisation.
 *
 * Fix: The bucket increment is an atomic section (__VERIFIER_atomic_begin/end).
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int hist[3];
int samples_a[4] = {1, 4, 2, 6};
int samples_b[4] = {7, 3, 5, 9};

void *count_samples(void *arg)
{
  int *s = (int *)arg;
  int i, b;
  for (i = 0; i < 4; i++) {
    b = s[i] % 3;
    __VERIFIER_atomic_begin();
    hist[b] = hist[b] + 1;
    __VERIFIER_atomic_end();
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
