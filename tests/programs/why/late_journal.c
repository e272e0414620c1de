/* Two recorders append events to a journal; main opens the journal on start-up. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t journal_lock = PTHREAD_MUTEX_INITIALIZER;
static int *entries;
static int capacity;
static int used;

static void journal_open(int n)
{
    entries = malloc(n * sizeof *entries);
    assert(entries != NULL);
    capacity = n;
    used = 0;
}

static void record(int event)
{
    pthread_mutex_lock(&journal_lock);
    assert(entries != NULL);
    if (used < capacity)
        entries[used++] = event;
    pthread_mutex_unlock(&journal_lock);
}

static void *recorder(void *arg)
{
    int id = *(int *)arg;
    record(id);
    record(id + 10);
    return NULL;
}

int main(void)
{
    pthread_t r1, r2;
    int one = 1, two = 2;

    pthread_create(&r1, NULL, recorder, &one);
    pthread_create(&r2, NULL, recorder, &two);
    journal_open(8);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    assert(used == 4);
    free(entries);
    return 0;
}
