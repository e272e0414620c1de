/* A slot pool whose take helper expects its caller to hold the pool's mutex, as the
 * worker does (and is done before the others start); the greedy thread calls it bare
 * while the refiller adds a slot under the mutex in a function of its own. The greedy
 * call is the fault. */
#include <assert.h>
#include <pthread.h>

struct pool {
    pthread_mutex_t mu;
    int free_slots;
    int in_use;
};

static struct pool pool = { PTHREAD_MUTEX_INITIALIZER, 2, 0 };

static void pool_refill(struct pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->free_slots = p->free_slots + 1;
    pthread_mutex_unlock(&p->mu);
}

/* The caller holds p->mu. */
static int pool_take_locked(struct pool *p)
{
    if (p->free_slots == 0)
        return 0;
    p->free_slots = p->free_slots - 1;
    p->in_use = p->in_use + 1;
    return 1;
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->mu);
    pool_take_locked(p);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

static void *greedy(void *arg)
{
    pool_take_locked(arg);
    return 0;
}

static void *refiller(void *arg)
{
    pool_refill(arg);
    return 0;
}

int main(void)
{
    pthread_t w, g, r;
    pthread_create(&w, 0, worker, &pool);
    pthread_join(w, 0);
    pthread_create(&g, 0, greedy, &pool);
    pthread_create(&r, 0, refiller, &pool);
    pthread_join(g, 0);
    pthread_join(r, 0);
    assert(pool.free_slots + pool.in_use == 3);
    return 0;
}
