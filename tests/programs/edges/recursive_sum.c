/* A recursive function called from a thread: modelled up to --recursion calls deep. */
#include <pthread.h>
#include <assert.h>
int total = 0;
int sum(int n) { if (n == 0) return 0; return n + sum(n - 1); }
void *worker(void *arg) { total = sum(2); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(total == 3);
  assert(sum(3) != 6); /* line 12: fails */
  return 0;
}
