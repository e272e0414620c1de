#include <assert.h>
#include <pthread.h>
#include <string.h>

struct message {
    int kind;
    int payload[2];
};

struct mailbox {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    int busy;
    struct message slot;
};

static struct mailbox box = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0, {0, 0}}};
static int received;

static void *reader(void *arg)
{
    struct mailbox *mb = arg;
    int total;

    pthread_mutex_lock(&mb->lock);
    mb->busy = 0;
    pthread_cond_signal(&mb->freed);
    pthread_mutex_unlock(&mb->lock);
    total = mb->slot.payload[0] + mb->slot.payload[1];
    received = total;
    return NULL;
}

static void post(struct mailbox *mb, int a, int b)
{
    pthread_mutex_lock(&mb->lock);
    while (mb->busy)
        pthread_cond_wait(&mb->freed, &mb->lock);
    pthread_mutex_unlock(&mb->lock);
    memset(&mb->slot, 0, sizeof mb->slot);
    mb->slot.payload[0] = a;
    mb->slot.payload[1] = b;
}

int main(void)
{
    pthread_t r;

    box.busy = 1;
    box.slot.kind = 1;
    box.slot.payload[0] = 20;
    box.slot.payload[1] = 22;
    pthread_create(&r, NULL, reader, &box);
    post(&box, 5, 6);
    pthread_join(r, NULL);
    assert(received == 42);
    return 0;
}
