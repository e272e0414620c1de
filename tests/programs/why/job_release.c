#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct job {
    int id;
    int weight;
    int claimed;
};

static pthread_mutex_t jobs_mutex = PTHREAD_MUTEX_INITIALIZER;
static int total_weight;

static void *run_job(void *arg)
{
    struct job *j = arg;
    int w;

    pthread_mutex_lock(&jobs_mutex);
    j->claimed = 1;
    pthread_mutex_unlock(&jobs_mutex);
    w = j->weight;
    total_weight = w;
    return NULL;
}

static int try_retire(struct job *j)
{
    pthread_mutex_lock(&jobs_mutex);
    if (!j->claimed) {
        pthread_mutex_unlock(&jobs_mutex);
        return 0;
    }
    pthread_mutex_unlock(&jobs_mutex);
    memset(j, 0, sizeof *j);
    return 1;
}

int main(void)
{
    pthread_t t;
    struct job *j = malloc(sizeof *j);

    if (j == NULL)
        return 1;
    j->id = 7;
    j->weight = 9;
    j->claimed = 0;
    pthread_create(&t, NULL, run_job, j);
    try_retire(j);
    pthread_join(t, NULL);
    assert(total_weight == 9);
    free(j);
    return 0;
}
