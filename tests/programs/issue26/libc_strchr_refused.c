// seqloc-expect: refused memmove
// `memmove` (and the rest of <string.h> but `memset` and `memcpy`) is not modelled:
// refused by name, never taken as a no-op.
#include <pthread.h>
#include <assert.h>
#include <string.h>

int buf[4] = {1, 2, 3, 4};

void *worker(void *arg) {
    (void)arg;
    buf[3] = 9;
    return NULL;
}

int main(void) {
    pthread_t t;
    memmove(buf + 1, buf, 2 * sizeof(int));
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    assert(buf[1] == 1);
    return 0;
}
