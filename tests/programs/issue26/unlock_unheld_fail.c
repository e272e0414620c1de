// seqloc-expect: failure 17
// A filler checks its slot before it takes the table's lock, but its error path gives
// back the lock it never took (line 17). POSIX leaves the default mutex's unlock by a
// thread that does not hold it undefined; ESBMC and CBMC report "must hold lock upon
// unlock", and so does seqloc's built-in checker (the unlock property, part of
// `--property all`). The second filler's bad slot reaches that unlock while no thread
// holds the lock.
#include <pthread.h>

pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
int table[2];
int used;

void *fill(void *arg) {
  int slot = *(int *)arg;
  if (slot < 0 || slot >= 2) {
    pthread_mutex_unlock(&table_lock);
    return 0;
  }
  pthread_mutex_lock(&table_lock);
  table[slot] = 1;
  used = used + 1;
  pthread_mutex_unlock(&table_lock);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int a = 0, b = 2;
  pthread_create(&t1, 0, fill, &a);
  pthread_create(&t2, 0, fill, &b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
