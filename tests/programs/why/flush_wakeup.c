/* The flusher sleeps until the cache has something dirty; a writer marks it dirty and
 * wakes the flusher. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dirty_cv = PTHREAD_COND_INITIALIZER;
static int dirty;
static int flushed;

static void *flusher(void *arg)
{
    (void)arg;
    if (dirty == 0) {
        pthread_mutex_lock(&cache_mu);
        pthread_cond_wait(&dirty_cv, &cache_mu);
        pthread_mutex_unlock(&cache_mu);
    }
    pthread_mutex_lock(&cache_mu);
    flushed = dirty;
    dirty = 0;
    pthread_mutex_unlock(&cache_mu);
    return 0;
}

static void mark_dirty(int pages)
{
    pthread_mutex_lock(&cache_mu);
    dirty = dirty + pages;
    pthread_cond_signal(&dirty_cv);
    pthread_mutex_unlock(&cache_mu);
}

int main(void)
{
    pthread_t f;
    pthread_create(&f, 0, flusher, 0);
    mark_dirty(3);
    pthread_join(f, 0);
    assert(flushed == 3);
    return 0;
}
