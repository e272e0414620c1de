// seqloc-expect: no-failure
// C11 threads (<threads.h>): two depositors update one balance, each reading and writing
// it back in one critical section; each thread's result comes back through thrd_join.
#include <threads.h>
#include <assert.h>

int balance = 100;
mtx_t lock;

int deposit(void *arg)
{
  int amount = *(int *)arg;
  mtx_lock(&lock);
  int b = balance;
  balance = b + amount;
  mtx_unlock(&lock);
  return amount;
}

int main(void)
{
  thrd_t a, b;
  int x = 10, y = 20, ra = 0, rb = 0;
  if (mtx_init(&lock, mtx_plain) != thrd_success)
    return 1;
  thrd_create(&a, deposit, &x);
  thrd_create(&b, deposit, &y);
  thrd_join(a, &ra);
  thrd_join(b, &rb);
  assert(ra == 10 && rb == 20);
  assert(balance == 130);
  mtx_destroy(&lock);
  return 0;
}
