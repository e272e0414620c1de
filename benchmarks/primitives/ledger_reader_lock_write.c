/*
 * primitives/ledger_reader_lock_write.c -- a writer takes the read lock. The
 * ledger is guarded by a read-write lock: auditors read it under the read
 * lock, and post() adds an entry -- but post() takes the read lock too, so two
 * posters hold it together and their read-modify-write of the total races.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: wrong-lock (a read lock for a write)
 * Faulty line: 34. post() must take the write lock
 *   (pthread_rwlock_wrlock), which excludes other writers and readers.
 *
 * Failing interleaving (2 context switches):
 *   poster A: L34 read-locks, L35 reads total (100)             [switch 1]
 *   poster B: L34 read-locks too, L35-L36 writes total = 110    [switch 2]
 *   poster A: L36 writes total = 110; main's check at L65 fails (120 expected).
 */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t ledger_lock = PTHREAD_RWLOCK_INITIALIZER;
int total = 100;
int entries = 0;

int audit(void)
{
  pthread_rwlock_rdlock(&ledger_lock);
  int ok = total >= 100;
  pthread_rwlock_unlock(&ledger_lock);
  return ok;
}

void post(int amount)
{
  pthread_rwlock_rdlock(&ledger_lock);
  int t = total;
  total = t + amount;
  entries = entries + 1;
  pthread_rwlock_unlock(&ledger_lock);
}

void *poster(void *arg)
{
  int amount = *(int *)arg;
  post(amount);
  return 0;
}

void *auditor(void *arg)
{
  (void)arg;
  assert(audit());
  return 0;
}

int main(void)
{
  pthread_t a, b, c;
  int ten = 10;
  pthread_create(&a, 0, poster, &ten);
  pthread_create(&b, 0, poster, &ten);
  pthread_create(&c, 0, auditor, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  assert(total == 120);
  return 0;
}
