// Two crawlers record their visits through a helper that loads the atomic
// counter and stores it back plus one (lines 15-16): each step is atomic, the
// pair is not, and a visit can be lost. `atomic_fetch_add` is the repair.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>

static atomic_int visits;
static int pages[2] = {3, 4};

static void record_visit(int page)
{
  if (page < 0)
    return;
  int seen = atomic_load(&visits);
  atomic_store(&visits, seen + 1);
}

static int fetch(int page)
{
  record_visit(page);
  return page * 10;
}

static void *crawler(void *arg)
{
  int start = *(int *)arg;
  for (int i = 0; i < 2; i++)
    fetch(pages[start] + i);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int s0 = 0, s1 = 1;
  pthread_create(&a, 0, crawler, &s0);
  pthread_create(&b, 0, crawler, &s1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&visits) == 4);
  return 0;
}
