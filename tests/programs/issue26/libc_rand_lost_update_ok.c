// seqloc-expect: no-failure
// Each worker fills a random slot and counts it under the lock: no update is lost.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int slots[4];
int used;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    int k = rand() % 4;
    pthread_mutex_lock(&m);
    int u = used;
    slots[k] = 1;
    used = u + 1;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    srand(42);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(used == 2);
    return 0;
}
