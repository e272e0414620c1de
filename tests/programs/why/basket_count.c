/* Two pickers each fill a basket and announce it; the farmer waits for both baskets
 * before loading the truck. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t yard = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
static int baskets;

static void *picker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&yard);
    baskets++;
    pthread_cond_signal(&filled);
    pthread_mutex_unlock(&yard);
    return NULL;
}

static int load_truck(void)
{
    int loaded;
    pthread_mutex_lock(&yard);
    for (int k = 0; k < 2; k++)
        pthread_cond_wait(&filled, &yard);
    loaded = baskets;
    pthread_mutex_unlock(&yard);
    return loaded;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, picker, NULL);
    pthread_create(&b, NULL, picker, NULL);
    int loaded = load_truck();
    assert(loaded == 2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
