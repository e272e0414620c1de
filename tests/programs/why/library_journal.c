/* A lending library: a desk checks books out and records each loan in the journal; an
 * archiver rotates the journal and stamps the catalogue with the rotation. */
#include <assert.h>
#include <pthread.h>

struct catalogue {
    pthread_mutex_t mu;
    int on_loan;
    int stamp;
};

struct journal {
    pthread_mutex_t mu;
    int entries;
};

static struct catalogue books = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
static struct journal log_book = { PTHREAD_MUTEX_INITIALIZER, 0 };

static void record_loan(struct journal *j)
{
    pthread_mutex_lock(&j->mu);
    j->entries++;
    pthread_mutex_unlock(&j->mu);
}

static void stamp_catalogue(struct catalogue *c, int when)
{
    pthread_mutex_lock(&c->mu);
    c->stamp = when;
    pthread_mutex_unlock(&c->mu);
}

static void *desk(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&books.mu);
    books.on_loan++;
    record_loan(&log_book);
    pthread_mutex_unlock(&books.mu);
    return NULL;
}

static void *archiver(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&log_book.mu);
    int rotated = log_book.entries;
    log_book.entries = 0;
    stamp_catalogue(&books, rotated + 1);
    pthread_mutex_unlock(&log_book.mu);
    return NULL;
}

int main(void)
{
    pthread_t d, a;
    pthread_create(&d, NULL, desk, NULL);
    pthread_create(&a, NULL, archiver, NULL);
    pthread_join(d, NULL);
    pthread_join(a, NULL);
    assert(books.stamp > 0);
    return 0;
}
