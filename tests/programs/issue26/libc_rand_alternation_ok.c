// seqloc-expect: no-failure
// libc_rand_alternation_fail.c with each thread's three steps under one mutex: the threads
// can no longer alternate, and no execution leaves the trail the assertion rules out. The
// random salt keeps the explicit-state search out, so the bounded search must show that
// its rounds hold every interleaving to say so.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int trail;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    trail = trail * 3 + 1;
    trail = trail * 3 + 1;
    trail = trail * 3 + 1;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t t;
    int salt = rand() % 2;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&m);
    trail = trail * 3 + 2;
    trail = trail * 3 + 2;
    trail = trail * 3 + 2;
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    assert(trail + salt * 1000 != 2 * 243 + 1 * 81 + 2 * 27 + 1 * 9 + 2 * 3 + 1);
    return 0;
}
