/* Each loader posts `loaded` when it is done, but a loader given an empty name
   leaves early at line 21 without posting: the collector waits for ever. */
#include <pthread.h>
#include <semaphore.h>

sem_t loaded;
pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
int files = 0;

static void *loader(void *arg)
{
    const char *name = arg;

    if (name[0] != '\0') {
        pthread_mutex_lock(&count_lock);
        files++;
        pthread_mutex_unlock(&count_lock);
        sem_post(&loaded);
    } else {
        /* nothing to load */
        return NULL;
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;

    sem_init(&loaded, 0, 0);
    pthread_create(&a, NULL, loader, "a.txt");
    pthread_create(&b, NULL, loader, "");
    sem_wait(&loaded);
    sem_wait(&loaded);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
