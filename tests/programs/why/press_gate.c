/* Print jobs share two presses; a job waits for a free press before it starts. */
#include <assert.h>
#include <pthread.h>

#define PRESSES 2
#define JOBS 3

struct press_room {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    int busy;
    int printed;
};

static struct press_room room = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0
};

static void take_press(struct press_room *r)
{
    pthread_mutex_lock(&r->lock);
    if (r->busy == PRESSES)
        pthread_cond_wait(&r->freed, &r->lock);
    r->busy++;
    assert(r->busy <= PRESSES);
    pthread_mutex_unlock(&r->lock);
}

static void give_press(struct press_room *r)
{
    pthread_mutex_lock(&r->lock);
    r->busy--;
    r->printed++;
    pthread_cond_signal(&r->freed);
    pthread_mutex_unlock(&r->lock);
}

static void *job(void *arg)
{
    struct press_room *r = arg;
    take_press(r);
    give_press(r);
    return NULL;
}

int main(void)
{
    pthread_t t[JOBS];
    for (int i = 0; i < JOBS; i++)
        pthread_create(&t[i], NULL, job, &room);
    for (int i = 0; i < JOBS; i++)
        pthread_join(t[i], NULL);
    return 0;
}
