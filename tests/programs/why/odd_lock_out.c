/* `stock` and `held` move together under `inv_lock` in restock() and in count(); hold()
   takes `log_lock` instead (line 24), so its update and count()'s read do not exclude
   each other. Both sections are named; the one under the lock the rest of the program
   does not use for this data comes first. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t inv_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
int stock = 4, held = 0, entries = 0;

static void *restock(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&inv_lock);
    stock = stock + 2;
    pthread_mutex_unlock(&inv_lock);
    return NULL;
}

static void *hold(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&log_lock);
    stock = stock - 1;
    held = held + 1;
    pthread_mutex_unlock(&log_lock);
    pthread_mutex_lock(&log_lock);
    entries = entries + 1;
    pthread_mutex_unlock(&log_lock);
    return NULL;
}

static void *count(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&inv_lock);
    int total = stock + held;
    pthread_mutex_unlock(&inv_lock);
    assert(total == 4 || total == 6);
    return NULL;
}

int main(void)
{
    pthread_t r, h, c;

    pthread_create(&r, NULL, restock, NULL);
    pthread_create(&h, NULL, hold, NULL);
    pthread_create(&c, NULL, count, NULL);
    pthread_join(r, NULL);
    pthread_join(h, NULL);
    pthread_join(c, NULL);
    return 0;
}
