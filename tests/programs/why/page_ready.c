/* The renderer hands a finished page to the printer; the printer waits to be told. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t page_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t page_done = PTHREAD_COND_INITIALIZER;
static int page[4];
static int rendered;

static void render_page(int n)
{
    pthread_mutex_lock(&page_mu);
    for (int i = 0; i < 4; i++)
        page[i] = n + i;
    rendered = 1;
    pthread_cond_signal(&page_done);
    pthread_mutex_unlock(&page_mu);
}

static void *renderer(void *arg)
{
    render_page(*(int *)arg);
    return NULL;
}

static void *printer(void *arg)
{
    int ink = 0;
    (void)arg;
    pthread_mutex_lock(&page_mu);
    pthread_cond_wait(&page_done, &page_mu);
    for (int i = 0; i < 4; i++)
        ink += page[i];
    pthread_mutex_unlock(&page_mu);
    assert(ink == 4 * 10 + 6);
    return NULL;
}

int main(void)
{
    static int first = 10;
    pthread_t r, p;
    pthread_create(&p, NULL, printer, NULL);
    pthread_create(&r, NULL, renderer, &first);
    pthread_join(r, NULL);
    pthread_join(p, NULL);
    return 0;
}
