#include <assert.h>
#include <pthread.h>

/* A worker drains jobs until the service shuts down; shutting down
 * releases the job table. */
static pthread_mutex_t svc_lock = PTHREAD_MUTEX_INITIALIZER;
static int shutting_down;
static int table_live = 1;
static int jobs_done;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&svc_lock);
    int quit = shutting_down;
    pthread_mutex_unlock(&svc_lock);
    for (int round = 0; round < 2; round++) {
        pthread_mutex_lock(&svc_lock);
        if (quit) {
            pthread_mutex_unlock(&svc_lock);
            break;
        }
        assert(table_live);
        jobs_done++;
        pthread_mutex_unlock(&svc_lock);
    }
    return 0;
}

static void *admin(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&svc_lock);
    shutting_down = 1;
    table_live = 0;
    pthread_mutex_unlock(&svc_lock);
    return 0;
}

int main(void)
{
    pthread_t w, a;
    pthread_create(&w, 0, worker, 0);
    pthread_create(&a, 0, admin, 0);
    pthread_join(w, 0);
    pthread_join(a, 0);
    return 0;
}
