/* A store's stock is kept under its stock lock; its audit counter under its audit lock.
 * Deliveries and returns both put items on the shelf. */
#include <assert.h>
#include <pthread.h>

struct store {
    pthread_mutex_t stock_mu;
    pthread_mutex_t audit_mu;
    int shelf[4];
    int stocked;
    int audits;
};

static struct store shop = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, { 0 }, 0, 0 };

static void put_on_shelf(struct store *s, int item)
{
    s->shelf[s->stocked % 4] = item;
    s->stocked = s->stocked + 1;
}

static void *delivery(void *arg)
{
    struct store *s = arg;
    pthread_mutex_lock(&s->stock_mu);
    put_on_shelf(s, 11);
    pthread_mutex_unlock(&s->stock_mu);
    return 0;
}

static void *returns(void *arg)
{
    struct store *s = arg;
    pthread_mutex_lock(&s->audit_mu);
    put_on_shelf(s, 12);
    pthread_mutex_unlock(&s->audit_mu);
    return 0;
}

static void audit(struct store *s)
{
    pthread_mutex_lock(&s->audit_mu);
    s->audits = s->audits + 1;
    pthread_mutex_unlock(&s->audit_mu);
}

int main(void)
{
    pthread_t d, r;
    pthread_create(&d, 0, delivery, &shop);
    pthread_create(&r, 0, returns, &shop);
    audit(&shop);
    pthread_join(d, 0);
    pthread_join(r, 0);
    assert(shop.stocked == 2);
    return 0;
}
