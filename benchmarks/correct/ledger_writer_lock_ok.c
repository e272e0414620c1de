/*
 * correct/ledger_writer_lock_ok.c -- fixed version of
 * primitives/ledger_reader_lock_write.c: post() takes the write lock, so
 * posters exclude each other and the auditors.
 *
 * Expected verdict: true (unreach-call)
 */#include <pthread.h>
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
  pthread_rwlock_wrlock(&ledger_lock);
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
