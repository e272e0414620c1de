/* A print spooler: the clerk queues documents, the printer takes them in order. The
 * spool holds at most three. */
#include <assert.h>
#include <pthread.h>

#define SLOTS 3

struct spool {
    pthread_mutex_t mu;
    pthread_cond_t has_work;
    int docs[SLOTS];
    int head, queued;
};

static struct spool sp = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, { 0 }, 0, 0 };

static void queue_doc(struct spool *s, int doc)
{
    pthread_mutex_lock(&s->mu);
    s->docs[(s->head + s->queued) % SLOTS] = doc;
    s->queued++;
    pthread_cond_signal(&s->has_work);
    pthread_mutex_unlock(&s->mu);
}

static int take_doc(struct spool *s)
{
    pthread_mutex_lock(&s->mu);
    while (s->queued == SLOTS)
        pthread_cond_wait(&s->has_work, &s->mu);
    assert(s->queued > 0);
    int doc = s->docs[s->head];
    s->head = (s->head + 1) % SLOTS;
    s->queued--;
    pthread_mutex_unlock(&s->mu);
    return doc;
}

static void *clerk(void *arg)
{
    queue_doc(arg, 7);
    queue_doc(arg, 8);
    return NULL;
}

static void *printer(void *arg)
{
    int printed = 0;
    for (int n = 0; n < 2; n++)
        printed += take_doc(arg);
    return (void *)(long)printed;
}

int main(void)
{
    pthread_t c, p;
    pthread_create(&c, NULL, clerk, &sp);
    pthread_create(&p, NULL, printer, &sp);
    pthread_join(c, NULL);
    pthread_join(p, NULL);
    return 0;
}
