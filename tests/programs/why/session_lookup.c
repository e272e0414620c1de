/* A session table: the handler looks its session up and bills it; the reaper closes idle
 * sessions. */
#include <assert.h>
#include <pthread.h>

struct session {
    int id;
    int open;
    int credit;
};

static struct session table[3] = { { 7, 1, 50 }, { 8, 1, 20 }, { 9, 1, 30 } };
static pthread_mutex_t table_mu = PTHREAD_MUTEX_INITIALIZER;
static int billed;

static struct session *find_session(int id)
{
    for (int i = 0; i < 3; i++)
        if (table[i].open && table[i].id == id)
            return &table[i];
    return 0;
}

static void *handler(void *arg)
{
    struct session *s;
    pthread_mutex_lock(&table_mu);
    s = find_session(*(int *)arg);
    pthread_mutex_unlock(&table_mu);
    if (s) {
        int charge = s->credit / 2;
        billed += charge;
        assert(charge > 0);
    }
    return 0;
}

static void *reaper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&table_mu);
    table[1].open = 0;
    table[1].credit = 0;
    pthread_mutex_unlock(&table_mu);
    return 0;
}

int main(void)
{
    static int wanted = 8;
    pthread_t h, r;
    pthread_create(&h, 0, handler, &wanted);
    pthread_create(&r, 0, reaper, 0);
    pthread_join(h, 0);
    pthread_join(r, 0);
    return 0;
}
