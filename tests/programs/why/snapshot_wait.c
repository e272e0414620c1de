#include <pthread.h>

/* The indexer publishes snapshot versions; a reader waits until the version
 * it needs is out. `fresh` marks a snapshot nobody has picked up yet and is
 * cleared when the indexer starts on the next one. */
struct snapshots {
    pthread_mutex_t m;
    pthread_cond_t published;
    int fresh;
    int version;
};

static struct snapshots snaps = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };

static void snapshot_publish(struct snapshots *s)
{
    pthread_mutex_lock(&s->m);
    s->version++;
    s->fresh = 1;
    pthread_cond_broadcast(&s->published);
    pthread_mutex_unlock(&s->m);
}

static void snapshot_begin_next(struct snapshots *s)
{
    pthread_mutex_lock(&s->m);
    s->fresh = 0;
    pthread_mutex_unlock(&s->m);
}

static void snapshot_await(struct snapshots *s, int want)
{
    pthread_mutex_lock(&s->m);
    while (!s->fresh || s->version < want)
        pthread_cond_wait(&s->published, &s->m);
    pthread_mutex_unlock(&s->m);
}

static void *indexer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2; i++) {
        snapshot_publish(&snaps);
        snapshot_begin_next(&snaps);
    }
    return 0;
}

static void *reader(void *arg)
{
    snapshot_await(&snaps, *(int *)arg);
    return 0;
}

int main(void)
{
    pthread_t ix, r1, r2;
    int first = 1, second = 2;
    pthread_create(&r1, 0, reader, &first);
    pthread_create(&r2, 0, reader, &second);
    pthread_create(&ix, 0, indexer, 0);
    pthread_join(ix, 0);
    pthread_join(r1, 0);
    pthread_join(r2, 0);
    return 0;
}
