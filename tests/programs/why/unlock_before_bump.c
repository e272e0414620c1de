/* Per-slot mutexes for the slot data, the pool's mutex for the pool's
 * counters. */
#include <assert.h>
#include <pthread.h>

struct slot {
    pthread_mutex_t mu;
    int fill;
};

struct pool {
    pthread_mutex_t mu;
    struct slot slots[2];
    int writes;
};

static struct pool pl = { PTHREAD_MUTEX_INITIALIZER,
                          { { PTHREAD_MUTEX_INITIALIZER, 0 },
                            { PTHREAD_MUTEX_INITIALIZER, 0 } },
                          0 };

static void put(struct pool *p, int k)
{
    struct slot *s = &p->slots[k];
    pthread_mutex_lock(&p->mu);
    pthread_mutex_lock(&s->mu);
    s->fill = s->fill + 1;
    pthread_mutex_unlock(&p->mu);
    p->writes = p->writes + 1;
    pthread_mutex_unlock(&s->mu);
}

static int writes_so_far(struct pool *p)
{
    pthread_mutex_lock(&p->mu);
    int w = p->writes;
    pthread_mutex_unlock(&p->mu);
    return w;
}

static void *filler(void *arg)
{
    int k = *(int *)arg;
    put(&pl, k);
    return (void *)(long)writes_so_far(&pl);
}

int main(void)
{
    pthread_t a, b;
    int ka = 0, kb = 1;
    pthread_create(&a, 0, filler, &ka);
    pthread_create(&b, 0, filler, &kb);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(pl.writes == 2);
    return 0;
}
