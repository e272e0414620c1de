// seqloc-expect: no-failure
// The twin of `libc_memset_one_struct_torn_fail.c`: the clear and the check hold one
// mutex, so the reader sees the struct whole or cleared.
#include <pthread.h>
#include <assert.h>
#include <string.h>

struct inner { int v[3]; char tag; };
struct outer { int id; struct inner in; };

struct outer g = { 7, { { 1, 2, 3 }, 'x' } };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    struct outer *o = arg;
    pthread_mutex_lock(&m);
    memset(&o->in, 0, sizeof o->in);
    pthread_mutex_unlock(&m);
    return NULL;
}

void *reader(void *arg) {
    pthread_mutex_lock(&m);
    assert(g.in.v[0] == 0 || g.in.v[2] == 3);
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void) {
    pthread_t t, r;
    pthread_create(&t, NULL, worker, &g);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(t, NULL);
    pthread_join(r, NULL);
    return 0;
}
