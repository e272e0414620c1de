// A shop checks the stock through a helper that locks on its own, then takes the lock
// again to sell: two buyers can both see the last item. The test at line 22 belongs
// inside the selling section.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t shop = PTHREAD_MUTEX_INITIALIZER;
static int stock = 1;

static int in_stock(void)
{
  int n;
  pthread_mutex_lock(&shop);
  n = stock;
  pthread_mutex_unlock(&shop);
  return n;
}

static void *buyer(void *arg)
{
  int *got = arg;
  if (in_stock() > 0) {
    pthread_mutex_lock(&shop);
    stock = stock - 1;
    assert(stock >= 0);
    pthread_mutex_unlock(&shop);
    *got = 1;
  }
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int ga = 0, gb = 0;
  pthread_create(&a, 0, buyer, &ga);
  pthread_create(&b, 0, buyer, &gb);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
