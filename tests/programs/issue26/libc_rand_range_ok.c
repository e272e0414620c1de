// seqloc-expect: no-failure
// `rand_r`, `random` and `rand` answer values from 0 to RAND_MAX, whatever the seed.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int picked[2];

void *worker(void *arg) {
    int *slot = arg;
    unsigned seed = 7;
    *slot = rand_r(&seed) % 6 + 1;
    return NULL;
}

int main(void) {
    pthread_t a, b;
    srandom(1);
    pthread_create(&a, NULL, worker, &picked[0]);
    pthread_create(&b, NULL, worker, &picked[1]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    long r = random();
    assert(r >= 0 && r <= RAND_MAX);
    assert(picked[0] >= 1 && picked[0] <= 6 && picked[1] >= 1 && picked[1] <= 6);
    return 0;
}
