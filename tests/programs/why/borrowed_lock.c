// Two workers count finished parts. The assembler takes `belt_lock` (which guards the
// belt position) around the count, the painter takes `tally_lock`: the assembler's
// section (line 35) borrowed the wrong mutex.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t belt_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
static int belt_pos;
static int parts_done;

static void advance_belt(void)
{
  pthread_mutex_lock(&belt_lock);
  belt_pos = belt_pos + 1;
  pthread_mutex_unlock(&belt_lock);
}

static void *painter(void *arg)
{
  (void)arg;
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&tally_lock);
    parts_done = parts_done + 1;
    pthread_mutex_unlock(&tally_lock);
  }
  return 0;
}

static void *assembler(void *arg)
{
  (void)arg;
  for (int i = 0; i < 2; i++) {
    advance_belt();
    pthread_mutex_lock(&belt_lock);
    parts_done = parts_done + 1;
    pthread_mutex_unlock(&belt_lock);
  }
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, painter, 0);
  pthread_create(&b, 0, assembler, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(parts_done == 4);
  return 0;
}
