#include <pthread.h>

#define NSTAGES 3

/* Three pipeline stages take turns on one shared line buffer: the baton names
 * the stage whose turn it is. */
struct baton {
    pthread_mutex_t m;
    pthread_cond_t passed;
    int turn;
};

static struct baton line_baton = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
static int line_buffer;

static void baton_wait(struct baton *b, int stage)
{
    pthread_mutex_lock(&b->m);
    while (b->turn != stage)
        pthread_cond_wait(&b->passed, &b->m);
    pthread_mutex_unlock(&b->m);
}

static void baton_pass(struct baton *b)
{
    pthread_mutex_lock(&b->m);
    b->turn = (b->turn + 1) % 2;
    pthread_cond_broadcast(&b->passed);
    pthread_mutex_unlock(&b->m);
}

static void *stage(void *arg)
{
    int me = *(int *)arg;
    for (int round = 0; round < 2; round++) {
        baton_wait(&line_baton, me);
        line_buffer += me;
        baton_pass(&line_baton);
    }
    return 0;
}

int main(void)
{
    pthread_t th[NSTAGES];
    int ids[NSTAGES] = { 0, 1, 2 };
    for (int i = 0; i < NSTAGES; i++)
        pthread_create(&th[i], 0, stage, &ids[i]);
    for (int i = 0; i < NSTAGES; i++)
        pthread_join(th[i], 0);
    return 0;
}
