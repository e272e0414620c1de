#include <assert.h>
#include <pthread.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int entries[3] = {4, 0, 7};
static int scanned;

static void *scanner(void *arg)
{
    int k;

    (void)arg;
    for (k = 0; k < 3; k++) {
        pthread_mutex_lock(&table_lock);
        if (entries[k] == 0)
            break;
        scanned += entries[k];
        pthread_mutex_unlock(&table_lock);
    }
    return NULL;
}

static void *filler(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&table_lock);
    entries[1] = 5;
    pthread_mutex_unlock(&table_lock);
    return NULL;
}

int main(void)
{
    pthread_t s, f;

    pthread_create(&s, NULL, scanner, NULL);
    pthread_create(&f, NULL, filler, NULL);
    pthread_join(s, NULL);
    pthread_join(f, NULL);
    pthread_mutex_lock(&table_lock);
    assert(scanned >= 4);
    pthread_mutex_unlock(&table_lock);
    return 0;
}
