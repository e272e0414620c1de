/* Two depots: a courier moves crates from one to the other, a loader adds to the second
 * depot. Each depot has its own mutex. */
#include <assert.h>
#include <pthread.h>

struct depot {
    pthread_mutex_t mu;
    int crates;
};

static struct depot north = { PTHREAD_MUTEX_INITIALIZER, 8 };
static struct depot south = { PTHREAD_MUTEX_INITIALIZER, 1 };

static void move_crates(struct depot *src, struct depot *dst, int n)
{
    pthread_mutex_lock(&src->mu);
    src->crates -= n;
    pthread_mutex_unlock(&src->mu);

    pthread_mutex_lock(&src->mu);
    dst->crates += n;
    pthread_mutex_unlock(&src->mu);
}

static void load(struct depot *d, int n)
{
    pthread_mutex_lock(&d->mu);
    d->crates += n;
    pthread_mutex_unlock(&d->mu);
}

static void *courier(void *arg)
{
    (void)arg;
    move_crates(&north, &south, 3);
    return NULL;
}

static void *loader(void *arg)
{
    (void)arg;
    load(&south, 2);
    return NULL;
}

int main(void)
{
    pthread_t c, l;
    pthread_create(&c, NULL, courier, NULL);
    pthread_create(&l, NULL, loader, NULL);
    pthread_join(c, NULL);
    pthread_join(l, NULL);
    assert(north.crates + south.crates == 11);
    return 0;
}
