/* `note_miss` counts a miss under the shelf's lock, for callers that do not hold
 * it (`restock`). `reserve` already holds the lock when it calls it: the call
 * locks the mutex again and the reserving thread deadlocks with itself when it
 * comes before the restock. */
#include <pthread.h>

struct shelf { pthread_mutex_t lock; int items; int misses; };
struct shelf sh = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };

void note_miss(struct shelf *s)
{
  pthread_mutex_lock(&s->lock);
  s->misses++;
  pthread_mutex_unlock(&s->lock);
}

void restock(struct shelf *s, int n)
{
  if (n <= 0) {
    note_miss(s);
    return;
  }
  pthread_mutex_lock(&s->lock);
  s->items += n;
  pthread_mutex_unlock(&s->lock);
}

void reserve(struct shelf *s)
{
  pthread_mutex_lock(&s->lock);
  if (s->items > 0)
    s->items--;
  else
    note_miss(s);
  pthread_mutex_unlock(&s->lock);
}

void *buyer(void *arg) { (void)arg; reserve(&sh); return 0; }
void *supplier(void *arg) { (void)arg; restock(&sh, 1); return 0; }

int main(void)
{
  pthread_t a, c;
  pthread_create(&c, 0, supplier, 0);
  pthread_create(&a, 0, buyer, 0);
  pthread_join(a, 0);
  pthread_join(c, 0);
  return 0;
}
