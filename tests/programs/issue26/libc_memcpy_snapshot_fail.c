// seqloc-expect: failure 27
// The writer keeps `lo` and `hi` equal under the lock; the reader copies the pair with
// `memcpy` without it (line 27) and can get one old and one new half.
#include <pthread.h>
#include <assert.h>
#include <string.h>
#include <stdlib.h>

struct pair { int lo; int hi; };
struct pair cur;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    cur.lo = 1;
    cur.hi = 1;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t t;
    struct pair *snap = malloc(sizeof *snap);
    if (!snap) return 1;
    pthread_create(&t, NULL, writer, NULL);
    memcpy(snap, &cur, sizeof cur);
    pthread_join(t, NULL);
    assert(snap->lo == snap->hi);
    free(snap);
    return 0;
}
