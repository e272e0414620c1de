// seqloc-expect: refused memset
// `memset` and its relatives are not modelled yet: refused by name, never taken as a no-op.
#include <pthread.h>
#include <assert.h>
#include <string.h>

int buf[4];

void *worker(void *arg) {
    (void)arg;
    buf[1] = 1;
    return NULL;
}

int main(void) {
    pthread_t t;
    memset(buf, 0, sizeof buf);
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    assert(buf[1] == 1);
    return 0;
}
