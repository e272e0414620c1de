// seqloc-expect: failure 14
// Each thread logs three steps into `trail` without a lock; only one interleaving, in which
// the two threads strictly alternate, leaves the trail the assertion rules out: the search
// needs four rounds to find it. The random salt keeps the explicit-state search from
// enumerating the program, so the bounded search alone answers.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int trail;

void *worker(void *arg) {
    (void)arg;
    trail = trail * 3 + 1;
    trail = trail * 3 + 1;
    trail = trail * 3 + 1;
    return NULL;
}

int main(void) {
    pthread_t t;
    int salt = rand() % 2;
    pthread_create(&t, NULL, worker, NULL);
    trail = trail * 3 + 2;
    trail = trail * 3 + 2;
    trail = trail * 3 + 2;
    pthread_join(t, NULL);
    assert(trail + salt * 1000 != 2 * 243 + 1 * 81 + 2 * 27 + 1 * 9 + 2 * 3 + 1);
    return 0;
}
