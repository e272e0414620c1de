// seqloc-expect: failure 33
// A table of tagged values shared through pointers; a slot is overwritten by a copy of
// a whole record (`*dst = *src`) whose union member is copied word by word, and the
// slot index is itself shared. The reader checks that the record's tag matches its
// payload; the writer replaces slot 1 without the table lock (line 33).
#include <pthread.h>
#include <assert.h>

struct record {
  int tag;
  union {
    long as_long;
    unsigned char raw[8];
  } payload;
  int tag_copy;
};

struct table {
  int current;
  struct record slots[2];
};

struct table t = {1, {{0, {0}, 0}, {1, {1}, 1}}};
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  struct table *tab = arg;
  struct record fresh;
  fresh.tag = 2;
  fresh.payload.as_long = 2;
  fresh.tag_copy = 2;
  struct record *dst = &tab->slots[tab->current];
  *dst = fresh;
  return 0;
}

void *reader(void *arg) {
  struct table *tab = arg;
  pthread_mutex_lock(&lock);
  struct record r = tab->slots[tab->current];
  pthread_mutex_unlock(&lock);
  assert(r.tag == r.tag_copy && r.payload.as_long == r.tag);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, &t);
  pthread_create(&b, 0, reader, &t);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
