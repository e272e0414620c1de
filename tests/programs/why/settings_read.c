#include <pthread.h>

/* Settings are read under the read lock and replaced under the write lock. */
static pthread_rwlock_t settings_lock = PTHREAD_RWLOCK_INITIALIZER;
static int settings_version;
static int timeout_ms = 100;
static int used_timeout;

static int settings_timeout(int need_version)
{
    pthread_rwlock_rdlock(&settings_lock);
    if (settings_version < need_version)
        return -1;
    int t = timeout_ms;
    pthread_rwlock_unlock(&settings_lock);
    return t;
}

static void *client(void *arg)
{
    (void)arg;
    used_timeout = settings_timeout(1);
    return 0;
}

static void *admin(void *arg)
{
    (void)arg;
    pthread_rwlock_wrlock(&settings_lock);
    timeout_ms = 250;
    settings_version = 1;
    pthread_rwlock_unlock(&settings_lock);
    return 0;
}

int main(void)
{
    pthread_t c, a;
    pthread_create(&c, 0, client, 0);
    pthread_create(&a, 0, admin, 0);
    pthread_join(c, 0);
    pthread_join(a, 0);
    return 0;
}
