/* A histogram with a mutex per bin: `hist_add` finds the bin with `bin_of`, but takes
 * the mutex of the bin the raw value indexes. Two values of one bin take two mutexes and
 * lose a count. The mutex's choice is the fault. */
#include <assert.h>
#include <pthread.h>

#define NBINS 2

struct bin {
    pthread_mutex_t lock;
    int hits;
};

struct hist {
    struct bin bins[NBINS];
};

static struct hist h = { { { PTHREAD_MUTEX_INITIALIZER, 0 }, { PTHREAD_MUTEX_INITIALIZER, 0 } } };

static struct bin *bin_of(struct hist *hs, int v)
{
    return &hs->bins[(v / 2) % NBINS];
}

static void hist_add(struct hist *hs, int v)
{
    struct bin *b = bin_of(hs, v);
    pthread_mutex_t *guard = &hs->bins[v % NBINS].lock;
    pthread_mutex_lock(guard);
    b->hits = b->hits + 1;
    pthread_mutex_unlock(guard);
}

static void *sampler(void *arg)
{
    hist_add(&h, *(int *)arg);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    int v1 = 0, v2 = 1;
    pthread_create(&a, 0, sampler, &v1);
    pthread_create(&b, 0, sampler, &v2);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(h.bins[0].hits == 2);
    return 0;
}
