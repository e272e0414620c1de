/* A logger whose buffer is set up once; the flush path sets it up again by
 * hand. */
#include <assert.h>
#include <pthread.h>

static int lines[3];
static int nlines;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;

static void log_setup(void)
{
    nlines = 0;
}

static void log_line(int v)
{
    pthread_once(&log_once, log_setup);
    pthread_mutex_lock(&log_mu);
    if (nlines < 3)
        lines[nlines++] = v;
    pthread_mutex_unlock(&log_mu);
}

static void log_restart(int v)
{
    log_setup();
    log_line(v);
}

static void *writer(void *arg)
{
    (void)arg;
    log_line(1);
    return 0;
}

static void *restarter(void *arg)
{
    (void)arg;
    log_restart(2);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, restarter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(nlines == 2);
    return 0;
}
