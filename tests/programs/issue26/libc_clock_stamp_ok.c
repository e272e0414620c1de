// seqloc-expect: no-failure
// Readings of the clock never go back, within a thread and across threads the schedule
// orders (a join): independent values would fail every assertion below.
#include <pthread.h>
#include <assert.h>
#include <time.h>
#include <sys/time.h>

long stamp;

void *producer(void *arg) {
    (void)arg;
    stamp = time(NULL);
    return NULL;
}

int main(void) {
    pthread_t t;
    struct timeval a, b;
    gettimeofday(&a, NULL);
    pthread_create(&t, NULL, producer, NULL);
    pthread_join(t, NULL);
    long now = time(NULL);
    assert(now >= stamp);
    gettimeofday(&b, NULL);
    assert(a.tv_usec >= 0 && a.tv_usec < 1000000);
    assert(b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_usec >= a.tv_usec));
    assert(b.tv_sec >= stamp);
    return 0;
}
