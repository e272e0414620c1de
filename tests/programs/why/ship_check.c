/* Two packers ship from one stock: the stock check is a helper called before the
 * mutex is taken, so both can pass it for the last units. The call of the check
 * belongs inside the section. */
#include <assert.h>
#include <pthread.h>

struct stock {
    pthread_mutex_t mu;
    int units;
    int shipped;
};

static struct stock stock = { PTHREAD_MUTEX_INITIALIZER, 4, 0 };

static int in_stock(const struct stock *s, int n)
{
    return s->units >= n;
}

static int ship(struct stock *s, int n)
{
    if (!in_stock(s, n))
        return 0;
    pthread_mutex_lock(&s->mu);
    s->units = s->units - n;
    s->shipped = s->shipped + n;
    pthread_mutex_unlock(&s->mu);
    return 1;
}

static void *packer(void *arg)
{
    ship(arg, 3);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, packer, &stock);
    pthread_create(&b, 0, packer, &stock);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(stock.units >= 0);
    return 0;
}
