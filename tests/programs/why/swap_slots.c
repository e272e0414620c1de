/* Two movers swap items between two shelves; each locks the shelf it takes from, then
 * the shelf it puts on, picked into `src`/`dst` from its arguments: movers going the
 * other way take the two mutexes in the opposite order and deadlock. The lock order is
 * chosen where `src` and `dst` are set. */
#include <pthread.h>

struct shelf {
    int id;
    int items;
    pthread_mutex_t mu;
};

static struct shelf left = { 1, 3, PTHREAD_MUTEX_INITIALIZER };
static struct shelf right = { 2, 3, PTHREAD_MUTEX_INITIALIZER };

static void move_one(struct shelf *from, struct shelf *to)
{
    struct shelf *src = from;
    struct shelf *dst = to;
    pthread_mutex_lock(&src->mu);
    pthread_mutex_lock(&dst->mu);
    if (from->items > 0) {
        from->items = from->items - 1;
        to->items = to->items + 1;
    }
    pthread_mutex_unlock(&dst->mu);
    pthread_mutex_unlock(&src->mu);
}

static void *to_right(void *arg)
{
    (void)arg;
    move_one(&left, &right);
    return 0;
}

static void *to_left(void *arg)
{
    (void)arg;
    move_one(&right, &left);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, to_right, 0);
    pthread_create(&b, 0, to_left, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
