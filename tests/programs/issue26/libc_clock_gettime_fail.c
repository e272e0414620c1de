// seqloc-expect: failure 24
// The check takes `tv_nsec` for microseconds: `clock_gettime` stores nanoseconds, any
// number below 10^9, so the bound of line 24 is wrong.
#include <pthread.h>
#include <assert.h>
#include <time.h>

int worker_done;

void *worker(void *arg) {
    (void)arg;
    clock_t c1 = clock();
    clock_t c2 = clock();
    assert(c2 >= c1);
    worker_done = 1;
    return NULL;
}

int main(void) {
    pthread_t t;
    struct timespec ts;
    pthread_create(&t, NULL, worker, NULL);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    assert(ts.tv_nsec >= 0 && ts.tv_nsec < 1000000);
    time_t t2;
    time_t r = time(&t2);
    assert(r == t2 && t2 >= ts.tv_sec);
    pthread_join(t, NULL);
    assert(worker_done == 1);
    return 0;
}
