/* Votes are counted per candidate; the tallies are striped over four locks, one per
 * tally. A batch counter adds several votes at once. */
#include <assert.h>
#include <pthread.h>

#define CANDIDATES 4

static int tally[CANDIDATES];
static pthread_mutex_t stripe[CANDIDATES];

static unsigned slot_of(unsigned ballot)
{
    return (ballot + 1) % CANDIDATES;
}

static void cast(unsigned ballot)
{
    unsigned s = slot_of(ballot);
    pthread_mutex_lock(&stripe[s]);
    tally[s]++;
    pthread_mutex_unlock(&stripe[s]);
}

static void cast_batch(unsigned ballot, int votes)
{
    unsigned s = slot_of(ballot);
    pthread_mutex_lock(&stripe[ballot % CANDIDATES]);
    tally[s] += votes;
    pthread_mutex_unlock(&stripe[ballot % CANDIDATES]);
}

static void *booth(void *arg)
{
    (void)arg;
    cast(0);
    cast(2);
    return NULL;
}

static void *mail_in(void *arg)
{
    (void)arg;
    cast_batch(0, 5);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < CANDIDATES; i++)
        pthread_mutex_init(&stripe[i], NULL);
    pthread_create(&a, NULL, booth, NULL);
    pthread_create(&b, NULL, mail_in, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(tally[1] == 6);
    return 0;
}
