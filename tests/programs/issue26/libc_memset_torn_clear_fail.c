// seqloc-expect: failure 22
// `memset` stores one element at a time: the reader can see a buffer half cleared. The
// clear needs the lock the reader takes (line 22 between a lock and an unlock of `m`).
#include <pthread.h>
#include <assert.h>
#include <string.h>

int buf[4] = {1, 1, 1, 1};
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    assert(buf[0] == buf[3]);
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    memset(buf, 0, sizeof buf);
    pthread_join(t, NULL);
    assert(buf[1] == 0);
    return 0;
}
