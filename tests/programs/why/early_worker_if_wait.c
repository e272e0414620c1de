/* A worker started before there is work waits for it under `if`, not `while`: a spurious
 * wake-up lets it take a job that is not there. Starting the worker first is the design
 * (it waits); the `if` is the fault. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER;
static int jobs;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    if (jobs == 0)
        pthread_cond_wait(&work_cv, &m);
    assert(jobs > 0);
    jobs = jobs - 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t w;
    pthread_create(&w, 0, worker, 0);
    pthread_mutex_lock(&m);
    jobs = jobs + 1;
    pthread_cond_signal(&work_cv);
    pthread_mutex_unlock(&m);
    pthread_join(w, 0);
    return 0;
}
