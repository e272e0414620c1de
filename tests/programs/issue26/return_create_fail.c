// seqloc-expect: failure 11
// The thread is created in a helper's `return pthread_create(..)`, whose result the caller
// drops: the creation still happens. The worker raises its flag before it stores the
// result, so main can see the flag and a result not written yet (line 11 belongs after 12).
#include <pthread.h>
#include <assert.h>

int ready, result;

static void *work(void *arg) {
    ready = 1;
    result = 42;
    return arg;
}

static int start(pthread_t *t) {
    return pthread_create(t, NULL, work, NULL);
}

int main(void) {
    pthread_t t;
    start(&t);
    if (ready)
        assert(result == 42);
    pthread_join(t, NULL);
    assert(result == 42);
    return 0;
}
