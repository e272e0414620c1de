// seqloc-expect: no-failure
// `main` joins the handle `pthread_create` stored: the worker is done before the check.
#include <pthread.h>
#include <assert.h>

int done;

void *worker(void *arg) {
    (void)arg;
    done = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(done == 1);
    return 0;
}
