// seqloc-expect: no-failure
// return_create_fail.c with the worker's stores in order: the thread, created in a helper's
// `return pthread_create(..)` whose result the caller drops, stores its result before it
// raises the flag, and main joins it (the join needs the creation to have happened).
#include <pthread.h>
#include <assert.h>

int ready, result;

static void *work(void *arg) {
    result = 42;
    ready = 1;
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
    assert(result == 42 && ready == 1);
    return 0;
}
