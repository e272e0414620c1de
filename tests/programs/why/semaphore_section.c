/* The updater moves one unit from `left` to `right` inside a section that the binary
   semaphore `gate` guards (lines 15-18); the auditor reads both without taking `gate`
   (line 26), so it can see the unit in neither place. The section is there already:
   the auditor's read is what must take `gate`. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t gate;
int left = 5, right = 0;

static void *updater(void *arg)
{
    (void)arg;
    sem_wait(&gate);
    left = left - 1;
    right = right + 1;
    sem_post(&gate);
    return NULL;
}

static void *auditor(void *arg)
{
    (void)arg;
    int total;
    total = left + right;
    assert(total == 5);
    return NULL;
}

int main(void)
{
    pthread_t u, a;

    sem_init(&gate, 0, 1);
    pthread_create(&u, NULL, updater, NULL);
    pthread_create(&a, NULL, auditor, NULL);
    pthread_join(u, NULL);
    pthread_join(a, NULL);
    return 0;
}
