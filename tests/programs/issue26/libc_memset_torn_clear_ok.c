// seqloc-expect: no-failure
// The clear holds the lock the reader takes: the reader sees all ones or all zeros.
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
    pthread_mutex_lock(&m);
    memset(buf, 0, sizeof buf);
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    assert(buf[1] == 0);
    return 0;
}
