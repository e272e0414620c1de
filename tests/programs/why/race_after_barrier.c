#include <assert.h>
#include <pthread.h>

#define RUNNERS 3

struct track {
    int laps;
    int falls;
};

struct runner_arg {
    struct track *tr;
    pthread_barrier_t *go;
    int trips;
};

static void count_one(int *c)
{
    int seen = *c;
    *c = seen + 1;
}

static void *runner(void *p)
{
    struct runner_arg *a = p;

    pthread_barrier_wait(a->go);
    count_one(&a->tr->laps);
    if (a->trips)
        count_one(&a->tr->falls);
    return NULL;
}

int main(void)
{
    struct track tr = {0, 0};
    struct runner_arg args[RUNNERS];
    pthread_t t[RUNNERS];
    pthread_barrier_t go;
    int i;

    pthread_barrier_init(&go, NULL, RUNNERS);
    for (i = 0; i < RUNNERS; i++) {
        args[i].tr = &tr;
        args[i].go = &go;
        args[i].trips = (i == 2);
        pthread_create(&t[i], NULL, runner, &args[i]);
    }
    for (i = 0; i < RUNNERS; i++)
        pthread_join(t[i], NULL);
    assert(tr.falls == 1);
    assert(tr.laps == RUNNERS);
    return 0;
}
