/* A flusher that cannot get the mutex parks its work in `backlog` anyway, without the
   lock (line 19), while the holder folds the backlog into `stored` and clears it.
   Faulty line: 19 (the access needs `store_mutex`). */
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t store_mutex = PTHREAD_MUTEX_INITIALIZER;
static int stored;
static int backlog;

static void flush(int n) {
    int sum;
    if (pthread_mutex_trylock(&store_mutex) == 0) {
        sum = stored + backlog + n;
        stored = sum;
        backlog = 0;
        pthread_mutex_unlock(&store_mutex);
    } else {
        backlog = backlog + n;
    }
}

static void *flusher(void *arg) {
    flush(*(int *)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int one = 1, two = 2;
    pthread_create(&a, 0, flusher, &one);
    pthread_create(&b, 0, flusher, &two);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(stored + backlog == 3);
    return 0;
}
