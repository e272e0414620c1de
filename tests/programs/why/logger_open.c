#include <assert.h>
#include <pthread.h>

struct logger {
    pthread_t flusher;
    int level;
    int written;
};

static struct logger lg;

static void *flush_loop(void *arg)
{
    struct logger *l = arg;

    if (l->level > 0)
        l->written++;
    return NULL;
}

static int logger_open(struct logger *l, int level)
{
    l->written = 0;
    if (pthread_create(&l->flusher, NULL, flush_loop, l) != 0)
        return -1;
    l->level = level;
    return 0;
}

int main(void)
{
    if (logger_open(&lg, 2) != 0)
        return 1;
    pthread_join(lg.flusher, NULL);
    assert(lg.written == 1);
    return 0;
}
