// seqloc-expect: no-failure
// The reader copies the pair under the writer's lock: both halves old or both new.
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
    pthread_mutex_lock(&m);
    memcpy(snap, &cur, sizeof cur);
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    assert(snap->lo == snap->hi);
    free(snap);
    return 0;
}
