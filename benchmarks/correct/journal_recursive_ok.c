/*
 * correct/journal_recursive_ok.c -- fixed version of
 * primitives/journal_mutex_type.c: the journal's mutex is recursive, so
 * write_pair() may call write_one() holding it.
 *
 * Expected verdict: true (no-deadlock)
 */#include <pthread.h>

pthread_mutex_t journal_lock;
int journal[4];
int length = 0;

void write_one(int v)
{
  pthread_mutex_lock(&journal_lock);
  journal[length] = v;
  length = length + 1;
  pthread_mutex_unlock(&journal_lock);
}

void write_pair(int a, int b)
{
  /* Both records or neither: the caller holds the journal; write_one
   * locks it again, which a recursive mutex allows. */
  pthread_mutex_lock(&journal_lock);
  write_one(a);
  write_one(b);
  pthread_mutex_unlock(&journal_lock);
}

void *writer(void *arg)
{
  int base = *(int *)arg;
  write_pair(base, base + 1);
  return 0;
}

int main(void)
{
  pthread_t w;
  int base = 7;
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&journal_lock, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_create(&w, 0, writer, &base);
  pthread_join(w, 0);
  pthread_mutex_destroy(&journal_lock);
  return 0;
}
