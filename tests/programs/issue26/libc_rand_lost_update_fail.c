// seqloc-expect: failure 16
// Each worker fills a random slot and counts it with an unlocked read and write of `used`:
// two workers can lose an update. `rand` and `srand` are modelled (any value up to RAND_MAX).
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int slots[4];
int used;

void *worker(void *arg) {
    (void)arg;
    int k = rand() % 4;
    int u = used;
    slots[k] = 1;
    used = u + 1;
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
