/*
 * deadlock/early_return_keeps_lock.c -- a lock leaked on an error path. Two
 * clients store values through put_item, which rejects negative values.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (missing unlock)
 * Faulty line: 30. The error return leaves store_lock locked; the next
 *   put_item blocks forever. The mutex must be released before returning.
 *
 * Deadlocking interleaving (2 context switches), with nondet value -1:
 *   main: L56,L57 create clients A and B; L58 join(B) blocks
 *   A:    L39 v = -1, L27 locks store_lock, L30 returns -1 with the lock held;
 *         A ends                                                       [switch 1]
 *   B:    L27 blocks on store_lock                                     [switch 2]
 *   main waits for B, B for a mutex nobody will release: deadlock.
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

pthread_mutex_t store_lock;
int store = 0;
int rejected = 0;

int put_item(int v)
{
  pthread_mutex_lock(&store_lock);
  if (v < 0) {
    rejected = rejected + 1;
    return -1;
  }
  store = store + v;
  pthread_mutex_unlock(&store_lock);
  return 0;
}

void *client_a(void *arg)
{
  int v = __VERIFIER_nondet_int();
  (void)arg;
  put_item(v);
  return 0;
}

void *client_b(void *arg)
{
  (void)arg;
  put_item(3);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_mutex_init(&store_lock, 0);
  pthread_create(&a, 0, client_a, 0);
  pthread_create(&b, 0, client_b, 0);
  pthread_join(b, 0);
  pthread_join(a, 0);
  return 0;
}
