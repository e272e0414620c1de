// seqloc-expect: failure 20
// A struct cleared through its address (`memset(&o->in, 0, sizeof o->in)`) is stored one
// member at a time: the reader can see it half cleared.
#include <pthread.h>
#include <assert.h>
#include <string.h>

struct inner { int v[3]; char tag; };
struct outer { int id; struct inner in; };

struct outer g = { 7, { { 1, 2, 3 }, 'x' } };

void *worker(void *arg) {
    struct outer *o = arg;
    memset(&o->in, 0, sizeof o->in);
    return NULL;
}

void *reader(void *arg) {
    assert(g.in.v[0] == 0 || g.in.v[2] == 3);
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
