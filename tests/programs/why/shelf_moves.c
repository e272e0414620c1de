/* Two clerks move stock between two shelves, each shelf under its own lock. */
#include <assert.h>
#include <pthread.h>

struct shelf {
    pthread_mutex_t lock;
    int items;
};

static struct shelf front, back;

static void move_items(struct shelf *from, struct shelf *to, int n)
{
    pthread_mutex_t *outer = &from->lock;
    pthread_mutex_t *inner = &to->lock;

    pthread_mutex_lock(outer);
    pthread_mutex_lock(inner);
    if (from->items >= n) {
        from->items -= n;
        to->items += n;
    }
    pthread_mutex_unlock(inner);
    pthread_mutex_unlock(outer);
}

static void *restock(void *arg)
{
    (void)arg;
    move_items(&back, &front, 2);
    return NULL;
}

static void *clear_front(void *arg)
{
    (void)arg;
    move_items(&front, &back, 1);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_mutex_init(&front.lock, NULL);
    pthread_mutex_init(&back.lock, NULL);
    front.items = 3;
    back.items = 5;
    pthread_create(&a, NULL, restock, NULL);
    pthread_create(&b, NULL, clear_front, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(front.items + back.items == 8);
    return 0;
}
