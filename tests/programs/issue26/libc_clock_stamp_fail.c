// seqloc-expect: failure 21
// The main thread reads the clock for `seen` before it joins the producer, so the producer's
// stamp may come later: `seen <= stamp` fails when main's reading is first. Joining first
// (line 19 after line 20) is the fix. `time` reads seqloc's clock model: it never goes back.
#include <pthread.h>
#include <assert.h>
#include <time.h>

long stamp;
long seen;

void *producer(void *arg) {
    (void)arg;
    stamp = time(NULL);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    seen = time(NULL);
    pthread_join(t, NULL);
    assert(seen <= stamp);
    return 0;
}
