/* A reader looks the current configuration up under the mutex and uses it after the
 * unlock, while a retirer takes it away and marks it dead; main retires what is left
 * once both are joined. The reader's use outside the section is the fault, not when
 * main started it: main's own retire comes after the joins. */
#include <assert.h>
#include <pthread.h>

struct cfg {
    int alive;
    int value;
};

static struct cfg boot = { 1, 5 };
static struct cfg *current;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static struct cfg *cfg_get(void)
{
    struct cfg *c;
    pthread_mutex_lock(&mu);
    c = current;
    pthread_mutex_unlock(&mu);
    return c;
}

static void cfg_retire(void)
{
    struct cfg *c;
    pthread_mutex_lock(&mu);
    c = current;
    current = 0;
    pthread_mutex_unlock(&mu);
    if (c)
        c->alive = 0;
}

static void *reader(void *arg)
{
    struct cfg *c = cfg_get();
    (void)arg;
    if (c)
        assert(c->alive);
    return 0;
}

static void *retirer(void *arg)
{
    (void)arg;
    cfg_retire();
    return 0;
}

int main(void)
{
    pthread_t r, t;
    current = &boot;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&t, 0, retirer, 0);
    pthread_join(r, 0);
    pthread_join(t, 0);
    cfg_retire();
    return 0;
}
