/* A gate made of a plain flag: the test (line 12) and the set (line 14) are two steps,
   so both printers pass the test before either sets it. Faulty lines: 12 and 14. */
#include <pthread.h>
#include <assert.h>

static volatile int gate_busy;
static int printing;
static int pages;

static void *printer(void *arg) {
    (void)arg;
    while (gate_busy)
        ;
    gate_busy = 1;
    printing = printing + 1;
    assert(printing == 1);
    pages = pages + 1;
    printing = printing - 1;
    gate_busy = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, printer, 0);
    pthread_create(&b, 0, printer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
