/* Each packer fills the order slot it is handed; the loop hands every packer the
   address of slot 0 (line 30) instead of slot i, so slot 1 is never filled. */
#include <pthread.h>
#include <assert.h>

struct order {
    int item;
    int packed;
};

pthread_mutex_t packing = PTHREAD_MUTEX_INITIALIZER;

static void *packer(void *arg)
{
    struct order *o = arg;

    pthread_mutex_lock(&packing);
    o->packed = o->item * 2;
    pthread_mutex_unlock(&packing);
    return NULL;
}

int main(void)
{
    pthread_t p[2];
    struct order orders[2] = { { 4, 0 }, { 5, 0 } };
    int i;

    for (i = 0; i < 2; i++) {
        struct order *mine = &orders[0];
        pthread_create(&p[i], NULL, packer, mine);
    }
    for (i = 0; i < 2; i++)
        pthread_join(p[i], NULL);
    assert(orders[1].packed == 10);
    return 0;
}
