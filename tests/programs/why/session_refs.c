/* Two handlers share a session; each holds a reference and drops it when done. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct session {
    atomic_int refs;
    int open;
    int requests;
};

static struct session sess;
static int errors;

static void session_put(struct session *s)
{
    if (atomic_fetch_sub(&s->refs, 1) == 1)
        s->open = 0;
}

static int handle(struct session *s, int req)
{
    assert(s->open);
    if (req < 0) {
        errors++;
        session_put(s);
        return -1;
    }
    s->requests++;
    return 0;
}

static void *handler(void *arg)
{
    int req = *(int *)arg;
    handle(&sess, req);
    session_put(&sess);
    return NULL;
}

int main(void)
{
    static int reqs[2] = { -1, 7 };
    pthread_t a, b;
    atomic_init(&sess.refs, 2);
    sess.open = 1;
    pthread_create(&a, NULL, handler, &reqs[0]);
    pthread_create(&b, NULL, handler, &reqs[1]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
