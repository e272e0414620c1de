#include <assert.h>
#include <pthread.h>

/* A pool of permits built from a mutex and a condition variable: one scanner
 * at a time may use the shared scratch buffer. */
struct permits {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    int avail;
};

static struct permits scratch_permits = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 1 };
static int scratch[2];
static int scanned;

static void permit_take(struct permits *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->avail == 0)
        pthread_cond_wait(&p->freed, &p->lock);
    p->avail++;
    pthread_mutex_unlock(&p->lock);
}

static void permit_give(struct permits *p)
{
    pthread_mutex_lock(&p->lock);
    p->avail++;
    pthread_cond_signal(&p->freed);
    pthread_mutex_unlock(&p->lock);
}

static void *scanner(void *arg)
{
    int id = *(int *)arg;
    permit_take(&scratch_permits);
    scratch[0] = id;
    scratch[1] = id * 2;
    assert(scratch[1] == scratch[0] * 2);
    scanned++;
    permit_give(&scratch_permits);
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    int a = 1, b = 2;
    pthread_create(&t1, 0, scanner, &a);
    pthread_create(&t2, 0, scanner, &b);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
