#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int holder;
static int lease_uses;

static void take_lease(int me)
{
    int none = 0;

    if (atomic_load(&holder) != 0)
        return;
    atomic_compare_exchange_strong(&holder, &none, me);
    lease_uses = lease_uses + 1;
    assert(atomic_load(&holder) == me);
}

static void *client(void *arg)
{
    take_lease((int)(long)arg);
    return NULL;
}

int main(void)
{
    pthread_t a, b;

    pthread_create(&a, NULL, client, (void *)1L);
    pthread_create(&b, NULL, client, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
