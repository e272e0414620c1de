/* A ticket office checks for seats under the lock, releases it, and books under the
   lock taken back; the second test (line 22) looks at the copy made at line 17
   instead of `seats` itself, so two clerks can sell the last seat. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t office = PTHREAD_MUTEX_INITIALIZER;
int seats = 1;
int sold = 0;

static void *clerk(void *arg)
{
    int open;

    (void)arg;
    pthread_mutex_lock(&office);
    open = seats > 0;
    pthread_mutex_unlock(&office);

    if (open) {
        pthread_mutex_lock(&office);
        if (open) {
            seats = seats - 1;
            sold = sold + 1;
        }
        pthread_mutex_unlock(&office);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;

    pthread_create(&a, NULL, clerk, NULL);
    pthread_create(&b, NULL, clerk, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(seats >= 0);
    return 0;
}
