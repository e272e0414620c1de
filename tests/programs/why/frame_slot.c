#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

/* The encoder hands frames to the writer through one slot: `slot_empty` says the
 * encoder may fill it, `slot_full` that the writer may take it. */
static sem_t slot_empty, slot_full;
static int slot;
static int written;

static void *encoder(void *arg)
{
    (void)arg;
    for (int frame = 1; frame <= 2; frame++) {
        sem_wait(&slot_empty);
        slot = frame;
        sem_post(&slot_full);
    }
    return 0;
}

static void *writer(void *arg)
{
    (void)arg;
    for (int frame = 1; frame <= 2; frame++) {
        sem_wait(&slot_full);
        assert(slot == frame);
        written++;
        sem_post(&slot_full);
    }
    return 0;
}

int main(void)
{
    pthread_t e, w;
    sem_init(&slot_empty, 0, 1);
    sem_init(&slot_full, 0, 0);
    pthread_create(&e, 0, encoder, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(e, 0);
    pthread_join(w, 0);
    return 0;
}
