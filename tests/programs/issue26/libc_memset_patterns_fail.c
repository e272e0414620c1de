// seqloc-expect: failure 12
// `memset` sets bytes: filling `short`s with 1 (line 12) makes each 0x0101 (257), not
// the 1 the check of line 20 expects (a loop storing 1 in each element would).
#include <pthread.h>
#include <assert.h>
#include <string.h>

short sh[3];

void *worker(void *arg) {
    (void)arg;
    memset(sh, 1, sizeof sh);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    assert(sh[2] == 1);
    return 0;
}
