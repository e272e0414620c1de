/* Tickets handed out by an atomic counter. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int next_ticket;
static int got[2];

static int take_ticket(void)
{
    int mine = atomic_load(&next_ticket);
    int after = mine + 1;
    atomic_store(&next_ticket, after);
    return mine;
}

static void *customer(void *arg)
{
    int who = *(int *)arg;
    got[who] = take_ticket();
    return 0;
}

int main(void)
{
    pthread_t a, b;
    int wa = 0, wb = 1;
    atomic_init(&next_ticket, 0);
    pthread_create(&a, 0, customer, &wa);
    pthread_create(&b, 0, customer, &wb);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(got[0] != got[1]);
    return 0;
}
