/* The consumer waits until `loading` is set, but the total is only ready once
   `ready` is: line 34 tests the wrong flag. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t lk = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
int loading = 0;
int ready = 0;
int total = 0;

static void *loader(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lk);
    loading = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lk);

    pthread_mutex_lock(&lk);
    total = 7 + 8;
    ready = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lk);
    return NULL;
}

static void *consumer(void *arg)
{
    int t;

    (void)arg;
    pthread_mutex_lock(&lk);
    while (!loading)
        pthread_cond_wait(&changed, &lk);
    t = total;
    pthread_mutex_unlock(&lk);
    assert(t == 15);
    return NULL;
}

int main(void)
{
    pthread_t l, c;

    pthread_create(&l, NULL, loader, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(l, NULL);
    pthread_join(c, NULL);
    return 0;
}
