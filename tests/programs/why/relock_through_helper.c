/* `bump_locked` expects the caller to hold `stats`; `bump` takes it itself. The
   flusher holds `stats` and calls `bump` (line 34) instead of `bump_locked`. */
#include <pthread.h>

pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
int flushed = 0;
int queued = 2;

static void bump_locked(void)
{
    flushed++;
}

static void bump(void)
{
    pthread_mutex_lock(&stats);
    bump_locked();
    pthread_mutex_unlock(&stats);
}

static void *producer(void *arg)
{
    (void)arg;
    bump();
    return NULL;
}

static void *flusher(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&stats);
    if (queued > 0) {
        queued--;
        bump();
    }
    pthread_mutex_unlock(&stats);
    return NULL;
}

int main(void)
{
    pthread_t p, f;

    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&f, NULL, flusher, NULL);
    pthread_join(p, NULL);
    pthread_join(f, NULL);
    return 0;
}
