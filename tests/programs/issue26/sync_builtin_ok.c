// seqloc-expect: no-failure
// GCC's legacy __sync builtins, each one indivisible step: a spinlock from
// __sync_lock_test_and_set/__sync_lock_release, counters from __sync_fetch_and_add and
// __sync_add_and_fetch, a one-time claim from __sync_bool_compare_and_swap.
#include <pthread.h>
#include <assert.h>
int lk;
int hits, total, owner;
int balance;
void *worker(void *arg) {
  int id = arg != 0 ? 2 : 1;
  __sync_fetch_and_add(&hits, 1);
  __sync_add_and_fetch(&total, 5);
  __sync_bool_compare_and_swap(&owner, 0, id);
  while (__sync_lock_test_and_set(&lk, 1))
    ;
  int b = balance;
  balance = b + 10;
  __sync_lock_release(&lk);
  __sync_synchronize();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, (void *)1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2 && total == 10 && (owner == 1 || owner == 2) && balance == 20);
  return 0;
}
