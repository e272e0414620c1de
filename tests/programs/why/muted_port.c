/* A port forwards packets unless an operator has muted it; the operator mutes the port
 * for a while and unmutes it again. The port has one mutex. */
#include <assert.h>
#include <pthread.h>

struct port {
    pthread_mutex_t mu;
    int muted;
    int forwarded;
    int dropped;
};

static struct port uplink = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0 };

static void *forwarder(void *arg)
{
    struct port *p = arg;
    int n = 0;
    while (n < 3) {
        n++;
        pthread_mutex_lock(&p->mu);
        if (p->muted)
            continue;
        p->forwarded++;
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

static void *operator(void *arg)
{
    struct port *p = arg;
    pthread_mutex_lock(&p->mu);
    p->muted = 1;
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_lock(&p->mu);
    p->muted = 0;
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int main(void)
{
    pthread_t f, o;
    pthread_create(&f, NULL, forwarder, &uplink);
    pthread_create(&o, NULL, operator, &uplink);
    pthread_join(f, NULL);
    pthread_join(o, NULL);
    assert(uplink.forwarded + uplink.dropped <= 3);
    return 0;
}
