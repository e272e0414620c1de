/*
 * primitives/journal_mutex_type.c -- a mutex locked again by its holder,
 * made with the wrong type. The journal's mutex is meant to be recursive:
 * write_pair() holds it to keep two records together and calls write_one(),
 * which takes it again. main sets the attribute's type to
 * PTHREAD_MUTEX_NORMAL, so the writer blocks on itself.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (relocking a mutex of the wrong type)
 * Faulty line: 55. The attribute must make the mutex recursive
 *   (PTHREAD_MUTEX_RECURSIVE), as the journal's callers rely on.
 *
 * Deadlocking interleaving (1 context switch):
 *   main:   L54-L57 makes the mutex, L58 creates the writer, L59 blocks
 *   writer: L36 locks the journal, L37 calls write_one, L26 blocks
 *   on the mutex it holds.
 */
#include <pthread.h>

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
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
  pthread_mutex_init(&journal_lock, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_create(&w, 0, writer, &base);
  pthread_join(w, 0);
  pthread_mutex_destroy(&journal_lock);
  return 0;
}
