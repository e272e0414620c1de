/* Each depositor declares its own mutex (line 11), so the two updates of `vault`
   are not excluded from each other: a lost update. */
#include <pthread.h>
#include <assert.h>

int vault = 0;

static void *depositor(void *arg)
{
    int amount = *(int *)arg;
    pthread_mutex_t guard;

    pthread_mutex_init(&guard, NULL);
    pthread_mutex_lock(&guard);
    vault = vault + amount;
    pthread_mutex_unlock(&guard);
    pthread_mutex_destroy(&guard);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    int five = 5, seven = 7;

    pthread_create(&a, NULL, depositor, &five);
    pthread_create(&b, NULL, depositor, &seven);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(vault == 12);
    return 0;
}
