/* A lock-free mailbox between a dispatcher and a worker: free-running counters. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SLOTS 2
#define MESSAGES 3

struct mailbox {
    atomic_uint sent;
    atomic_uint taken;
    int msg[SLOTS];
};

static struct mailbox box;
static int refused;

static int mailbox_send(struct mailbox *mb, int m)
{
    unsigned w = atomic_load(&mb->sent);
    unsigned r = atomic_load(&mb->taken);
    if (w - r > SLOTS)
        return -1; /* full: the dispatcher retries later */
    mb->msg[w % SLOTS] = m;
    atomic_store(&mb->sent, w + 1);
    return 0;
}

static int mailbox_take(struct mailbox *mb)
{
    unsigned r = atomic_load(&mb->taken);
    if (r == atomic_load(&mb->sent))
        return 0; /* empty */
    int m = mb->msg[r % SLOTS];
    atomic_store(&mb->taken, r + 1);
    return m;
}

static void *dispatcher(void *arg)
{
    (void)arg;
    for (int id = 1; id <= MESSAGES; id++)
        if (mailbox_send(&box, id * 10) < 0)
            refused++;
    return NULL;
}

static void *worker(void *arg)
{
    int last = 0;
    (void)arg;
    for (int round = 0; round < MESSAGES; round++) {
        int m = mailbox_take(&box);
        if (m != 0) {
            assert(m > last); /* in order, none twice */
            last = m;
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t d, w;
    pthread_create(&d, NULL, dispatcher, NULL);
    pthread_create(&w, NULL, worker, NULL);
    pthread_join(d, NULL);
    pthread_join(w, NULL);
    return 0;
}
