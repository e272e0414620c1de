/* Two threads look up keys; each hit and each miss is counted under the mutex. The
   miss path was copied from the hit path and still counts a hit (line 22): `misses` is
   read by the check but written nowhere. No value stored at line 22 can make `misses`
   right, so only the store's target is the fix. */
#include <assert.h>
#include <pthread.h>

int table[4] = {3, 5, 7, 9};
int hits, misses;
pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;

static void count_hit(void)
{
    pthread_mutex_lock(&stats);
    hits = hits + 1;
    pthread_mutex_unlock(&stats);
}

static void count_miss(void)
{
    pthread_mutex_lock(&stats);
    hits = hits + 1;
    pthread_mutex_unlock(&stats);
}

static void *lookup(void *arg)
{
    int key = *(int *)arg;
    int i, found = 0;

    for (i = 0; i < 4; i++)
        if (table[i] == key)
            found = 1;
    if (found)
        count_hit();
    else
        count_miss();
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    int k1 = 5, k2 = 4;

    pthread_create(&a, NULL, lookup, &k1);
    pthread_create(&b, NULL, lookup, &k2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(hits == 1 && misses == 1);
    return 0;
}
