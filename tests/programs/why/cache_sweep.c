/* A cache sweeper that backs off when the cache is busy: it keeps trylock's result and
 * returns on EDEADLK only, so a busy cache (EBUSY) is swept without the lock while a
 * filler adds entries under it. The test of `err` is the fault. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

struct cache {
    pthread_mutex_t mu;
    int entries;
    int evicted;
};

static struct cache cache = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };

static void cache_fill(struct cache *c)
{
    pthread_mutex_lock(&c->mu);
    c->entries = c->entries + 1;
    pthread_mutex_unlock(&c->mu);
}

static void cache_sweep(struct cache *c)
{
    int err = pthread_mutex_trylock(&c->mu);
    if (err == EDEADLK)
        return;
    c->evicted = c->evicted + c->entries;
    c->entries = 0;
    if (err == 0)
        pthread_mutex_unlock(&c->mu);
}

static void *filler(void *arg)
{
    cache_fill(arg);
    cache_fill(arg);
    return 0;
}

static void *sweeper(void *arg)
{
    cache_sweep(arg);
    return 0;
}

int main(void)
{
    pthread_t f, s;
    pthread_create(&f, 0, filler, &cache);
    pthread_create(&s, 0, sweeper, &cache);
    pthread_join(f, 0);
    pthread_join(s, 0);
    assert(cache.entries + cache.evicted == 2);
    return 0;
}
