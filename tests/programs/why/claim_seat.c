/* Seat booking: a lookup helper checks under the table's mutex whether the
 * guest already holds a seat; the caller then takes the mutex again to claim
 * one. Two bookings for the same guest can both miss and both claim. */
#include <assert.h>
#include <pthread.h>

#define SEATS 4

struct hall {
    pthread_mutex_t mu;
    int guest[SEATS];
    int taken;
};

static struct hall h = { PTHREAD_MUTEX_INITIALIZER, { 0 }, 0 };

static int seat_of(struct hall *t, int who)
{
    int found = -1;
    pthread_mutex_lock(&t->mu);
    for (int s = 0; s < t->taken; s++)
        if (t->guest[s] == who)
            found = s;
    pthread_mutex_unlock(&t->mu);
    return found;
}

static int claim(struct hall *t, int who)
{
    int s = t->taken;
    t->guest[s] = who;
    t->taken = s + 1;
    return s;
}

static int book(struct hall *t, int who)
{
    int seat = seat_of(t, who);
    if (seat != -1)
        return seat;
    pthread_mutex_lock(&t->mu);
    seat = claim(t, who);
    pthread_mutex_unlock(&t->mu);
    return seat;
}

static void *agent(void *arg)
{
    (void)arg;
    book(&h, 7);
    return 0;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, agent, 0);
    pthread_create(&b, 0, agent, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(h.taken == 1);
    return 0;
}
