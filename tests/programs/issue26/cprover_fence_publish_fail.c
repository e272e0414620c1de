// seqloc-expect: failure 12
// The flag is published (line 12) before the data it announces: a fence does not
// reorder the program's own statements, so a reader can see the flag and old data.
#include <pthread.h>
#include <assert.h>

int data;
int flag;

void *writer(void *arg) {
    (void)arg;
    flag = 1;
    __CPROVER_fence("WWfence", "RWfence");
    data = 42;
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
