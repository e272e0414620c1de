// seqloc-expect: failure 12
// `rand() % 3` can be 0 (any value up to RAND_MAX may come), a share the assertion
// rejects: the worker's line is where the value is made.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int share;

void *worker(void *arg) {
    (void)arg;
    share = rand() % 3;
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    assert(share != 0);
    return 0;
}
