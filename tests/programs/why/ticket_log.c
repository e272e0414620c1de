/* Every ticket the clerks issue is logged; the auditor checks the two tallies agree. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t desk = PTHREAD_MUTEX_INITIALIZER;
static int issued, logged;

static void issue_ticket(void)
{
    pthread_mutex_lock(&desk);
    issued = issued + 1;
    pthread_mutex_unlock(&desk);
}

static void log_ticket(void)
{
    pthread_mutex_lock(&desk);
    logged = logged + 1;
    pthread_mutex_unlock(&desk);
}

static void *clerk(void *arg)
{
    (void)arg;
    issue_ticket();
    log_ticket();
    return 0;
}

static void *auditor(void *arg)
{
    int a, b;
    (void)arg;
    pthread_mutex_lock(&desk);
    a = issued;
    b = logged;
    pthread_mutex_unlock(&desk);
    assert(a == b);
    return 0;
}

int main(void)
{
    pthread_t c, d;
    pthread_create(&c, 0, clerk, 0);
    pthread_create(&d, 0, auditor, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    return 0;
}
