/* A set of subscriber ids: look up under the lock, insert under the lock. */
#include <assert.h>
#include <pthread.h>

struct idset {
    pthread_mutex_t mu;
    int ids[3];
    int count;
};

static struct idset subs = { PTHREAD_MUTEX_INITIALIZER, { 0 }, 0 };

static int idset_has(struct idset *s, int id)
{
    int yes = 0;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < s->count; i++)
        if (s->ids[i] == id)
            yes = 1;
    pthread_mutex_unlock(&s->mu);
    return yes;
}

static void idset_add(struct idset *s, int id)
{
    pthread_mutex_lock(&s->mu);
    if (s->count < 3) {
        s->ids[s->count] = id;
        s->count = s->count + 1;
    }
    pthread_mutex_unlock(&s->mu);
}

static void *subscriber(void *arg)
{
    int id = *(int *)arg;
    if (!idset_has(&subs, id))
        idset_add(&subs, id);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    int ia = 5, ib = 5;
    pthread_create(&a, 0, subscriber, &ia);
    pthread_create(&b, 0, subscriber, &ib);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(subs.count == 1);
    return 0;
}
