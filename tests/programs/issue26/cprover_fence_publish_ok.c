// seqloc-expect: no-failure
// CBMC's `__CPROVER_fence` between the data and the flag: under sequential consistency,
// which seqloc checks, the fence orders nothing more, and the data is written first.
#include <pthread.h>
#include <assert.h>

int data;
int flag;

void *writer(void *arg) {
    (void)arg;
    data = 42;
    __CPROVER_fence("WWfence", "RWfence");
    flag = 1;
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    if (flag) {
        __CPROVER_fence("RRfence");
        assert(data == 42);
    }
    pthread_join(t, NULL);
    return 0;
}
