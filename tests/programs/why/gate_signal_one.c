/* Two guests wait at the gate; the host opens it and wakes one of them with a signal
   (line 27) where every waiter must wake: a broadcast. The other guest waits for ever. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t opened = PTHREAD_COND_INITIALIZER;
int gate_open = 0;

static void *guest(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    while (!gate_open)
        pthread_cond_wait(&opened, &m);
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t g1, g2;

    pthread_create(&g1, NULL, guest, NULL);
    pthread_create(&g2, NULL, guest, NULL);
    pthread_mutex_lock(&m);
    gate_open = 1;
    pthread_cond_signal(&opened);
    pthread_mutex_unlock(&m);
    pthread_join(g1, NULL);
    pthread_join(g2, NULL);
    return 0;
}
