/*
 * A restocker moves boxes from the back room to the shelf with a helper that
 * holds each room's own lock in turn; a counter takes both locks and checks
 * that no box is lost. The helper lets go of the back room (line 31) before it
 * takes the shelf's lock (line 32): in between the boxes are in neither room.
 * Faulty lines: 31, 32.
 */
#include <pthread.h>
#include <assert.h>

struct room {
  pthread_mutex_t mu;
  int boxes;
};

struct room back, shelf;

static void bump(struct room *r, int by)
{
  r->boxes += by;
}

static void carry(struct room *src, struct room *dst, int n)
{
  if (n <= 0)
    return;
  pthread_mutex_lock(&src->mu);
  bump(src, -n);
  if (src->boxes < 0)
    bump(src, n);
  pthread_mutex_unlock(&src->mu);
  pthread_mutex_lock(&dst->mu);
  bump(dst, n);
  pthread_mutex_unlock(&dst->mu);
}

void *restocker(void *arg)
{
  int n = *(int *)arg;
  carry(&back, &shelf, n);
  return 0;
}

void *counter(void *arg)
{
  int seen;
  (void)arg;
  pthread_mutex_lock(&back.mu);
  pthread_mutex_lock(&shelf.mu);
  seen = back.boxes + shelf.boxes;
  pthread_mutex_unlock(&shelf.mu);
  pthread_mutex_unlock(&back.mu);
  assert(seen == 12);
  return 0;
}

int main(void)
{
  pthread_t r, c;
  int n = 5;
  pthread_mutex_init(&back.mu, 0);
  pthread_mutex_init(&shelf.mu, 0);
  back.boxes = 10;
  shelf.boxes = 2;
  pthread_create(&r, 0, restocker, &n);
  pthread_create(&c, 0, counter, 0);
  pthread_join(r, 0);
  pthread_join(c, 0);
  return 0;
}
