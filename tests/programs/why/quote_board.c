/* A quote board shows one symbol and its price; a feeder posts new quotes, a trader
 * polls for the symbols it follows. The board has one mutex. */
#include <assert.h>
#include <pthread.h>

struct board {
    pthread_mutex_t mu;
    int symbol;
    int price;
};

static struct board shown = { PTHREAD_MUTEX_INITIALIZER, 1, 10 };

static int price_of(int symbol) { return symbol * 10; }

static void post_symbol(struct board *b, int symbol)
{
    pthread_mutex_lock(&b->mu);
    b->symbol = symbol;
    pthread_mutex_unlock(&b->mu);
}

static void post_price(struct board *b, int price)
{
    pthread_mutex_lock(&b->mu);
    b->price = price;
    pthread_mutex_unlock(&b->mu);
}

static int quote(struct board *b, int symbol, int *price)
{
    int found = 0;
    pthread_mutex_lock(&b->mu);
    if (b->symbol == symbol) {
        *price = b->price;
        found = 1;
    }
    pthread_mutex_unlock(&b->mu);
    return found;
}

static void *feeder(void *arg)
{
    (void)arg;
    for (int s = 2; s <= 3; s++) {
        post_symbol(&shown, s);
        post_price(&shown, price_of(s));
    }
    return NULL;
}

static void *trader(void *arg)
{
    (void)arg;
    for (int s = 1; s <= 3; s++) {
        int p;
        if (quote(&shown, s, &p))
            assert(p == price_of(s));
    }
    return NULL;
}

int main(void)
{
    pthread_t f, t;
    pthread_create(&f, NULL, feeder, NULL);
    pthread_create(&t, NULL, trader, NULL);
    pthread_join(f, NULL);
    pthread_join(t, NULL);
    return 0;
}
