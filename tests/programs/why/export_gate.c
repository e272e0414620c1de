#include <assert.h>
#include <pthread.h>

/* A lock made by hand so that its holder can be queried: `busy` says whether
 * somebody exports the catalogue right now. */
struct gate {
    pthread_mutex_t m;
    pthread_cond_t open;
    int busy;
    int waiting;
};

static struct gate export_gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
static int catalogue[2];

static void gate_enter(struct gate *g)
{
    pthread_mutex_lock(&g->m);
    if (g->busy) {
        g->waiting++;
        while (g->busy)
            pthread_cond_wait(&g->open, &g->m);
        g->waiting--;
    } else {
        g->busy = 1;
    }
    pthread_mutex_unlock(&g->m);
}

static void gate_leave(struct gate *g)
{
    pthread_mutex_lock(&g->m);
    g->busy = 0;
    if (g->waiting > 0)
        pthread_cond_signal(&g->open);
    pthread_mutex_unlock(&g->m);
}

static void *exporter(void *arg)
{
    int v = *(int *)arg;
    for (int round = 0; round < 2; round++) {
        gate_enter(&export_gate);
        catalogue[0] = v;
        catalogue[1] = v;
        assert(catalogue[0] == catalogue[1]);
        gate_leave(&export_gate);
    }
    return 0;
}

int main(void)
{
    pthread_t a, b, c;
    int x = 1, y = 2, z = 3;
    pthread_create(&a, 0, exporter, &x);
    pthread_create(&b, 0, exporter, &y);
    pthread_create(&c, 0, exporter, &z);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
