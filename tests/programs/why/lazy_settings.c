/* Double-checked initialisation: `loaded` is raised (line 20) before the fields it
   announces are written (lines 21-22). The unlocked first test at line 17 is the
   idiom's fast path; the fault is the order of the writes. Faulty line: 20. */
#include <pthread.h>
#include <assert.h>

struct settings {
    int loaded;
    int retries;
    int timeout;
};

static struct settings conf;
static pthread_mutex_t conf_mutex = PTHREAD_MUTEX_INITIALIZER;

static void load_settings(void) {
    if (!conf.loaded) {
        pthread_mutex_lock(&conf_mutex);
        if (!conf.loaded) {
            conf.loaded = 1;
            conf.retries = 3;
            conf.timeout = 30;
        }
        pthread_mutex_unlock(&conf_mutex);
    }
}

static void *client(void *arg) {
    (void)arg;
    load_settings();
    assert(conf.timeout == 30);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, client, 0);
    pthread_create(&b, 0, client, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
