// seqloc-expect: refused strchr
// `strchr` (and the rest of <string.h> but `memset`, `memcpy`, `memmove`, `strlen`,
// `strcmp`, `strncmp`, `strcpy`, `strncpy` and `strcat`) is not modelled: refused by
// name, never taken as a no-op.
#include <pthread.h>
#include <assert.h>
#include <string.h>

char path[16] = "usr/lib";

void *worker(void *arg) {
    (void)arg;
    path[3] = '_';
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    char *slash = strchr(path, '/');
    pthread_join(t, NULL);
    assert(slash == 0 || *slash == '/');
    return 0;
}
