/* A lightswitch: the first viewer to enter locks the gallery against the cleaner,
   the last to leave unlocks it. Line 18 tests for the second viewer instead of the
   first, so the first viewer looks while the cleaner is moving the paintings. */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

pthread_mutex_t door = PTHREAD_MUTEX_INITIALIZER;
sem_t gallery;
int inside = 0;
int left_wall = 3, right_wall = 3;

static void *viewer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&door);
    inside++;
    if (inside == 2)
        sem_wait(&gallery);
    pthread_mutex_unlock(&door);

    assert(left_wall + right_wall == 6);

    pthread_mutex_lock(&door);
    inside--;
    if (inside == 0)
        sem_post(&gallery);
    pthread_mutex_unlock(&door);
    return NULL;
}

static void *cleaner(void *arg)
{
    (void)arg;
    sem_wait(&gallery);
    left_wall--;
    right_wall++;
    sem_post(&gallery);
    return NULL;
}

int main(void)
{
    pthread_t c, v1, v2;

    sem_init(&gallery, 0, 1);
    pthread_create(&c, NULL, cleaner, NULL);
    pthread_create(&v1, NULL, viewer, NULL);
    pthread_create(&v2, NULL, viewer, NULL);
    pthread_join(c, NULL);
    pthread_join(v1, NULL);
    pthread_join(v2, NULL);
    return 0;
}
