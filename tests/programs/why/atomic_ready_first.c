// Lazy set-up behind an atomic flag: the first caller fills the settings under the
// lock, but raises `ready` (line 19) before it writes `depth` (line 20). A reader that
// sees the flag reads the flag without the lock by design (it is atomic) and then the
// old depth.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>

static pthread_mutex_t setup_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int ready;
static int depth;

static int get_depth(void)
{
  if (atomic_load(&ready))
    return depth;
  pthread_mutex_lock(&setup_lock);
  if (!atomic_load(&ready)) {
    atomic_store(&ready, 1);
    depth = 16;
  }
  pthread_mutex_unlock(&setup_lock);
  return depth;
}

static void *user(void *arg)
{
  (void)arg;
  assert(get_depth() == 16);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, user, 0);
  pthread_create(&b, 0, user, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
