// seqloc-expect: failure 37
// The twin of `libc_memset_one_struct_ok.c` with one assertion that a copy the clear
// did not touch was cleared: it fails.
// `memset`/`memcpy` of one whole struct, named by its address (`&s`, `&p->inner`) or by a
// pointer to it: every member, nested arrays included, is stored, and the pointer is
// evaluated once (a later change of it moves no store).
#include <pthread.h>
#include <assert.h>
#include <string.h>
#include <stdlib.h>

struct inner { int v[3]; char tag; };
struct outer { int id; struct inner in; long total; };

struct outer g = { 7, { { 1, 2, 3 }, 'x' }, 9 };

void *worker(void *arg) {
    struct outer *o = arg;
    memset(&o->in, 0, sizeof o->in);
    return NULL;
}

int main(void) {
    pthread_t t;
    struct outer copy;
    memcpy(&copy, &g, sizeof copy);
    assert(copy.id == 7 && copy.in.v[2] == 3 && copy.in.tag == 'x' && copy.total == 9);
    pthread_create(&t, NULL, worker, &g);
    pthread_join(t, NULL);
    assert(g.id == 7 && g.in.v[0] == 0 && g.in.v[2] == 0 && g.in.tag == 0 && g.total == 9);
    struct outer *h = malloc(sizeof *h);
    if (h == NULL)
        return 0;
    struct outer *p = h;
    memset(p, 0, sizeof *p);
    assert(h->id == 0 && h->in.v[1] == 0 && h->total == 0);
    assert(copy.in.v[1] == 0);
    memcpy(h, &copy, sizeof *h);
    assert(h->in.v[1] == 2 && h->total == 9);
    struct inner *q = &h->in;
    memset(q++, 0, sizeof *q);
    assert(h->in.v[0] == 0 && h->id == 7 && q == &h->in + 1);
    free(h);
    return 0;
}
