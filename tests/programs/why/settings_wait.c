/* A server answers with the port from its settings, which a loader thread reads in while
 * the server is starting. */
#include <assert.h>
#include <pthread.h>

struct settings {
    pthread_mutex_t mu;
    pthread_cond_t ready;
    int loaded;
    int port;
    int workers;
};

static struct settings cfg = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };

static void *loader(void *arg)
{
    struct settings *s = arg;
    pthread_mutex_lock(&s->mu);
    s->port = 8080;
    s->workers = 4;
    s->loaded = 1;
    pthread_cond_broadcast(&s->ready);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static void *server(void *arg)
{
    struct settings *s = arg;
    int port, workers;
    pthread_mutex_lock(&s->mu);
    while (s->loaded)
        pthread_cond_wait(&s->ready, &s->mu);
    port = s->port;
    workers = s->workers;
    pthread_mutex_unlock(&s->mu);
    assert(port == 8080 && workers > 0);
    return NULL;
}

int main(void)
{
    pthread_t srv, ld;
    pthread_create(&srv, NULL, server, &cfg);
    pthread_create(&ld, NULL, loader, &cfg);
    pthread_join(srv, NULL);
    pthread_join(ld, NULL);
    return 0;
}
