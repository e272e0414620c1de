/* A booking thread and an upgrade thread change one flight's seat counts. */
#include <assert.h>
#include <pthread.h>

struct flight {
    pthread_mutex_t seats_lock; /* guards economy and business */
    pthread_mutex_t log_lock;   /* guards changes */
    int economy;
    int business;
    int changes;
};

static struct flight f = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, 2, 1, 0 };

static void note_change(struct flight *fl)
{
    pthread_mutex_lock(&fl->log_lock);
    fl->changes++;
    pthread_mutex_unlock(&fl->log_lock);
}

static void book_economy(struct flight *fl)
{
    pthread_mutex_lock(&fl->seats_lock);
    fl->economy--;
    pthread_mutex_unlock(&fl->seats_lock);
    note_change(fl);
}

static void cancel_economy(struct flight *fl)
{
    pthread_mutex_lock(&fl->seats_lock);
    fl->economy++;
    pthread_mutex_unlock(&fl->seats_lock);
    note_change(fl);
}

static void upgrade(struct flight *fl)
{
    pthread_mutex_lock(&fl->log_lock);
    fl->business--;
    fl->economy++;
    pthread_mutex_unlock(&fl->log_lock);
    note_change(fl);
}

static void *agent(void *arg)
{
    (void)arg;
    book_economy(&f);
    cancel_economy(&f);
    return NULL;
}

static void *upgrader(void *arg)
{
    (void)arg;
    upgrade(&f);
    return NULL;
}

int main(void)
{
    pthread_t a, u;
    pthread_create(&a, NULL, agent, NULL);
    pthread_create(&u, NULL, upgrader, NULL);
    pthread_join(a, NULL);
    pthread_join(u, NULL);
    assert(f.economy == 3 && f.business == 0 && f.changes == 3);
    return 0;
}
