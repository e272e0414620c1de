/* A file handle shared by two workers; the last one to let go closes it. */
#include <assert.h>
#include <pthread.h>

struct handle {
    pthread_mutex_t mu;
    int users;
    int closed;
};

static struct handle fh = { PTHREAD_MUTEX_INITIALIZER, 2, 0 };
static pthread_mutex_t close_mu = PTHREAD_MUTEX_INITIALIZER;
static int closes;

static void handle_close(struct handle *h)
{
    pthread_mutex_lock(&close_mu);
    h->closed = 1;
    closes++;
    pthread_mutex_unlock(&close_mu);
}

static void handle_drop(struct handle *h)
{
    pthread_mutex_lock(&h->mu);
    h->users = h->users - 1;
    pthread_mutex_unlock(&h->mu);
    if (h->users == 0)
        handle_close(h);
}

static void *worker(void *arg)
{
    handle_drop(arg);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, worker, &fh);
    pthread_create(&b, 0, worker, &fh);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(closes == 1);
    return 0;
}
