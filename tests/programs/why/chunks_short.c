/* The reader takes CHUNKS chunks; the writer's loop (line 16) hands over one
   fewer, so the reader waits for ever for the last one. */
#include <pthread.h>
#include <semaphore.h>

#define CHUNKS 3

sem_t ready;
int chunk[CHUNKS];

static void *writer(void *arg)
{
    int k;

    (void)arg;
    for (k = 1; k < CHUNKS; k++) {
        chunk[k - 1] = k * 10;
        sem_post(&ready);
    }
    return NULL;
}

static void *reader(void *arg)
{
    int k, sum = 0;

    (void)arg;
    for (k = 0; k < CHUNKS; k++) {
        sem_wait(&ready);
        sum += chunk[k];
    }
    return NULL;
}

int main(void)
{
    pthread_t w, r;

    sem_init(&ready, 0, 0);
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return 0;
}
