// seqloc-expect: failure 22
// `main` joins a handle no `pthread_create` stored (line 21: `garbage` for `t`). Its value
// is whatever the local holds, main's own id included: glibc then answers EDEADLK at once
// (POSIX's "may fail"), the worker has not run yet, and the check fails (once reported as
// a DEADLOCK). Only the check is a candidate: the handle's value is an input, not a
// statement's, so Griesmeyer's method cannot name line 21.
#include <pthread.h>
#include <assert.h>

int done;

void *worker(void *arg) {
    (void)arg;
    done = 1;
    return 0;
}

int main(void) {
    pthread_t garbage, t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(garbage, 0);
    assert(done == 1);
    return 0;
}
