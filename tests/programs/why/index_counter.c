// An indexer appends names to a catalog under `catalog_lock` and, in the same
// section, bumps the shared `lookups` counter that every other function guards with
// `count_lock`. The bump at line 27 sits under the wrong lock; the catalog's own
// section (lines 23-29) is right for the catalog.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t catalog_lock = PTHREAD_MUTEX_INITIALIZER;
static int lookups;
static int names[3];
static int nnames;

static void count_lookup(void)
{
  pthread_mutex_lock(&count_lock);
  lookups = lookups + 1;
  pthread_mutex_unlock(&count_lock);
}

static void add_name(int n)
{
  pthread_mutex_lock(&catalog_lock);
  if (nnames < 3) {
    names[nnames] = n;
    nnames = nnames + 1;
    lookups = lookups + 1;
  }
  pthread_mutex_unlock(&catalog_lock);
}

void *searcher(void *arg)
{
  (void)arg;
  count_lookup();
  count_lookup();
  return 0;
}

void *indexer(void *arg)
{
  (void)arg;
  add_name(11);
  return 0;
}

int main(void)
{
  pthread_t s, x;
  pthread_create(&s, 0, searcher, 0);
  pthread_create(&x, 0, indexer, 0);
  pthread_join(s, 0);
  pthread_join(x, 0);
  assert(lookups == 3);
  return 0;
}
