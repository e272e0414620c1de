#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

/* The highest queue depth seen, kept without a lock. */
static atomic_int peak_depth;

static void peak_note(int depth)
{
    int seen = atomic_load(&peak_depth);
    int next = seen < depth ? depth : seen;
    for (int tries = 0; tries < 3; tries++) {
        if (atomic_compare_exchange_strong(&peak_depth, &seen, next))
            break;
    }
}

static void *sampler(void *arg)
{
    peak_note(*(int *)arg);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    int deep = 5, shallow = 3;
    pthread_create(&a, 0, sampler, &deep);
    pthread_create(&b, 0, sampler, &shallow);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&peak_depth) == 5);
    return 0;
}
