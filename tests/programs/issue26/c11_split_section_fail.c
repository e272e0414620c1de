// seqloc-expect: failure 17
// C11 threads (<threads.h>): two depositors update one balance under a mutex, but each
// reads the balance in one critical section and writes it back in another, so the other
// depositor's update can fall between them and be lost. Each thread's result comes back
// through thrd_join.
#include <threads.h>
#include <assert.h>

int balance = 100;
mtx_t lock;

int deposit(void *arg)
{
  int amount = *(int *)arg;
  mtx_lock(&lock);
  int b = balance;
  mtx_unlock(&lock);
  mtx_lock(&lock);
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
