/* Both threads append to `tail_count` through one helper; the archiver calls it under
   `log_mutex`, the alerter calls it without (line 31): an append is lost.
   Faulty line: 31. */
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static int entries[4];
static int tail_count;

static void append(int v) {
    int at = tail_count;
    entries[at] = v;
    tail_count = at + 1;
}

static void *archiver(void *arg) {
    int i;
    (void)arg;
    for (i = 0; i < 2; i++) {
        pthread_mutex_lock(&log_mutex);
        append(10 + i);
        pthread_mutex_unlock(&log_mutex);
    }
    return 0;
}

static void *alerter(void *arg) {
    (void)arg;
    entries[3] = 0;
    append(99);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, archiver, 0);
    pthread_create(&b, 0, alerter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(tail_count == 3);
    return 0;
}
