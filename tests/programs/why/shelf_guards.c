/* A warehouse keeps its stock on shelves, one shelf per ten item numbers, each shelf
 * guarded by its own mutex. A restocker and a picker work on item numbers of the same
 * shelf. */
#include <assert.h>
#include <pthread.h>

#define SHELVES 3

struct warehouse {
    pthread_mutex_t guards[SHELVES];
    int stock[SHELVES];
};

static struct warehouse wh;

static void restock(struct warehouse *w, int item, int n)
{
    int shelf = item / 10;
    pthread_mutex_t *guard = &w->guards[item % SHELVES];
    pthread_mutex_lock(guard);
    w->stock[shelf] += n;
    pthread_mutex_unlock(guard);
}

static void pick(struct warehouse *w, int item)
{
    int shelf = item / 10;
    pthread_mutex_lock(&w->guards[shelf]);
    w->stock[shelf] -= 1;
    pthread_mutex_unlock(&w->guards[shelf]);
}

static void *restocker(void *arg)
{
    restock(arg, 11, 5);
    return NULL;
}

static void *picker(void *arg)
{
    pick(arg, 12);
    return NULL;
}

int main(void)
{
    pthread_t r, p;
    for (int s = 0; s < SHELVES; s++) {
        pthread_mutex_init(&wh.guards[s], NULL);
        wh.stock[s] = 2;
    }
    pthread_create(&r, NULL, restocker, &wh);
    pthread_create(&p, NULL, picker, &wh);
    pthread_join(r, NULL);
    pthread_join(p, NULL);
    assert(wh.stock[1] == 6);
    return 0;
}
