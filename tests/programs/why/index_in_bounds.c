/* The consumer may add up its two slots (line 23) before the producer has filled the
   second one (line 15): an order violation. No other in-bounds pair of slots sums to 4
   at that moment, so a different index at line 22 fixes nothing; an index before the
   start of `box` reads some other memory and could make the assertion hold by chance,
   and that is no repair. */
#include <assert.h>
#include <pthread.h>

int box[3] = {4, 1, 0};
int got;

static void *producer(void *arg)
{
    (void)arg;
    box[2] = 3;
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    int k = 1;
    got = box[k] + box[k + 1];
    return NULL;
}

int main(void)
{
    pthread_t p, c;

    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    assert(got == 4);
    return 0;
}
