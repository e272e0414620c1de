/* A crew of two takes tasks from a board; each member keeps its own count under its own
 * mutex, and reports the finished task on the board. */
#include <assert.h>
#include <pthread.h>

struct board {
    pthread_mutex_t mu;
    int open;
    int finished;
};

struct member {
    struct board *b;
    pthread_mutex_t mu;
    int tasks;
};

static struct board board = { PTHREAD_MUTEX_INITIALIZER, 2, 0 };
static struct member crew[2];

static void *shift(void *arg)
{
    struct member *m = arg;
    int got = 0;

    pthread_mutex_lock(&m->b->mu);
    if (m->b->open > 0) {
        m->b->open--;
        got = 1;
    }
    pthread_mutex_unlock(&m->b->mu);
    if (got) {
        pthread_mutex_lock(&m->mu);
        m->tasks++;
        m->b->finished++;
        pthread_mutex_unlock(&m->mu);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        crew[i].b = &board;
        crew[i].tasks = 0;
        pthread_mutex_init(&crew[i].mu, NULL);
        pthread_create(&t[i], NULL, shift, &crew[i]);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(board.finished == 2);
    return 0;
}
