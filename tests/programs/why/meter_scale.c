/* A meter converts raw readings with the scale the station configures; the station
 * starts the meter, then configures it. */
#include <assert.h>
#include <pthread.h>

struct station {
    pthread_mutex_t mu;
    int scale;
    int readings[2];
    int converted;
};

static struct station st;

static void *meter(void *arg)
{
    struct station *s = arg;
    for (int k = 0; k < 2; k++) {
        pthread_mutex_lock(&s->mu);
        s->converted += s->readings[k] * s->scale;
        pthread_mutex_unlock(&s->mu);
    }
    return NULL;
}

int main(void)
{
    pthread_t m;
    pthread_mutex_init(&st.mu, NULL);
    st.readings[0] = 3;
    st.readings[1] = 4;
    pthread_create(&m, NULL, meter, &st);
    pthread_mutex_lock(&st.mu);
    st.scale = 10;
    pthread_mutex_unlock(&st.mu);
    pthread_join(m, NULL);
    assert(st.converted == 70);
    return 0;
}
