/* A pool hands out slots; the census counts the slots in use and checks the pool's own
 * count of them. */
#include <assert.h>
#include <pthread.h>

struct pool {
    pthread_mutex_t mu;
    int used[3];
    int in_use;
};

static struct pool slots = { PTHREAD_MUTEX_INITIALIZER, { 0, 0, 0 }, 0 };

static void take_slot(struct pool *p, int i)
{
    pthread_mutex_lock(&p->mu);
    p->used[i] = 1;
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_lock(&p->mu);
    p->in_use = p->in_use + 1;
    pthread_mutex_unlock(&p->mu);
}

static void *client(void *arg)
{
    take_slot(&slots, *(int *)arg);
    return 0;
}

static void *census(void *arg)
{
    int n = 0;
    (void)arg;
    pthread_mutex_lock(&slots.mu);
    for (int i = 0; i < 3; i++)
        if (slots.used[i])
            n++;
    assert(n == slots.in_use);
    pthread_mutex_unlock(&slots.mu);
    return 0;
}

int main(void)
{
    static int which = 1;
    pthread_t c, k;
    pthread_create(&c, 0, client, &which);
    pthread_create(&k, 0, census, 0);
    pthread_join(c, 0);
    pthread_join(k, 0);
    return 0;
}
