#include <assert.h>
#include <pthread.h>

/* Customers draw a number at the desk; numbers are handed out once the desk opens. */
struct desk {
    pthread_mutex_t m;
    pthread_cond_t opened;
    int open;
    int next_number;
    int holder[3];
};

static struct desk desk = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, { 0 } };

static int draw_number(struct desk *d, int customer)
{
    pthread_mutex_lock(&d->m);
    int number = d->next_number;
    while (!d->open)
        pthread_cond_wait(&d->opened, &d->m);
    d->next_number = number + 1;
    assert(d->holder[number] == 0);
    d->holder[number] = customer;
    pthread_mutex_unlock(&d->m);
    return number;
}

static void *customer(void *arg)
{
    draw_number(&desk, *(int *)arg);
    return 0;
}

static void *clerk(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&desk.m);
    desk.open = 1;
    pthread_cond_broadcast(&desk.opened);
    pthread_mutex_unlock(&desk.m);
    return 0;
}

int main(void)
{
    pthread_t a, b, c;
    int ann = 1, bob = 2;
    pthread_create(&a, 0, customer, &ann);
    pthread_create(&b, 0, customer, &bob);
    pthread_create(&c, 0, clerk, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
