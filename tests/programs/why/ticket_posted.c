/* A help desk posts one ticket; an agent polls the desk and works on the ticket once it is
 * posted. The desk has one mutex, and the clerk takes it twice. */
#include <assert.h>
#include <pthread.h>

struct desk {
    pthread_mutex_t mu;
    int posted;
    int priority;
    int minutes;
};

static struct desk front = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0 };
static int worked;

static void *clerk(void *arg)
{
    struct desk *d = arg;
    pthread_mutex_lock(&d->mu);
    d->posted = 1;
    pthread_mutex_unlock(&d->mu);
    pthread_mutex_lock(&d->mu);
    d->priority = 2;
    d->minutes = 30;
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

static void *agent(void *arg)
{
    struct desk *d = arg;
    for (int round = 0; round < 2; round++) {
        pthread_mutex_lock(&d->mu);
        if (d->posted && !worked) {
            assert(d->minutes > 0);
            worked = d->minutes / d->priority;
        }
        pthread_mutex_unlock(&d->mu);
    }
    return NULL;
}

int main(void)
{
    pthread_t c, a;
    pthread_create(&a, NULL, agent, &front);
    pthread_create(&c, NULL, clerk, &front);
    pthread_join(c, NULL);
    pthread_join(a, NULL);
    return 0;
}
