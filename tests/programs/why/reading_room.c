/* Visitors borrow the one reading-room key; a visitor whose card is refused hands the
   key back at once, an admitted one when leaving. */
#include <pthread.h>
#include <semaphore.h>

#define VISITORS 2
#define REVOKED 13

static sem_t key;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int admitted, refused;

static int card_valid(int card)
{
    return card != REVOKED;
}

static int check_in(int card)
{
    int valid;
    sem_wait(&key);
    valid = card_valid(card);
    pthread_mutex_lock(&log_lock);
    if (valid)
        admitted++;
    else
        refused++;
    pthread_mutex_unlock(&log_lock);
    if (valid)
        sem_post(&key);
    return valid;
}

static void check_out(void)
{
    pthread_mutex_lock(&log_lock);
    admitted--;
    pthread_mutex_unlock(&log_lock);
    sem_post(&key);
}

static void *visitor(void *arg)
{
    int card = *(int *)arg;
    if (check_in(card))
        check_out();
    return NULL;
}

int main(void)
{
    static int cards[VISITORS] = { REVOKED, 7 };
    pthread_t t[VISITORS];
    sem_init(&key, 0, 1);
    for (int i = 0; i < VISITORS; i++)
        pthread_create(&t[i], NULL, visitor, &cards[i]);
    for (int i = 0; i < VISITORS; i++)
        pthread_join(t[i], NULL);
    return 0;
}
