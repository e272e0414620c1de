/* Each worker scores its own vector through `score`, whose running total is a
 * block-scope static: both workers' calls share it. */
#include <pthread.h>
#include <assert.h>

static int score(const int *v, int n)
{
  static int total;
  total = 0;
  for (int i = 0; i < n; i++)
    total += v[i] * v[i];
  return total;
}

int a[2] = {1, 2}, b[2] = {3, 1};
int ra, rb;

void *score_a(void *arg) { (void)arg; ra = score(a, 2); return 0; }
void *score_b(void *arg) { (void)arg; rb = score(b, 2); return 0; }

int main(void)
{
  pthread_t t1, t2;
  pthread_create(&t1, 0, score_a, 0);
  pthread_create(&t2, 0, score_b, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(ra == 5 && rb == 10);
  return 0;
}
