/* Uploaders share one upload slot and give it back when they are done. */
#include <pthread.h>
#include <semaphore.h>

#define UPLOADERS 2

struct result {
    int ok;
    int bytes;
};

static sem_t slots;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static int failed, sent;

static struct result upload(int size)
{
    struct result r;
    r.ok = size <= 100;
    r.bytes = r.ok ? size : 0;
    return r;
}

static void finish(struct result r)
{
    pthread_mutex_lock(&stats_lock);
    if (!r.ok) {
        failed++;
    } else {
        sent += r.bytes;
        sem_post(&slots);
    }
    pthread_mutex_unlock(&stats_lock);
}

static void *uploader(void *arg)
{
    int size = *(int *)arg;
    sem_wait(&slots);
    struct result r = upload(size);
    finish(r);
    return NULL;
}

int main(void)
{
    static int sizes[UPLOADERS] = { 500, 40 };
    pthread_t t[UPLOADERS];
    sem_init(&slots, 0, 1);
    for (int i = 0; i < UPLOADERS; i++)
        pthread_create(&t[i], NULL, uploader, &sizes[i]);
    for (int i = 0; i < UPLOADERS; i++)
        pthread_join(t[i], NULL);
    return 0;
}
