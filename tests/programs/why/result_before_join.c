/* Two workers each count the even numbers of their half of a table and leave the
   count in their own slot of `results`. The collector adds the second slot before it
   joins the second worker (lines 36 and 37 are in the wrong order). */
#include <pthread.h>
#include <assert.h>

struct job {
    int first;
    int last;
    int evens;
};

static int table[6] = { 2, 3, 4, 6, 7, 8 };

static void *count_evens(void *arg)
{
    struct job *j = arg;
    int n = 0;

    for (int k = j->first; k < j->last; k++)
        if (table[k] % 2 == 0)
            n++;
    j->evens = n;
    return NULL;
}

int main(void)
{
    struct job jobs[2] = { { 0, 3, 0 }, { 3, 6, 0 } };
    pthread_t w[2];
    int total;

    pthread_create(&w[0], NULL, count_evens, &jobs[0]);
    pthread_create(&w[1], NULL, count_evens, &jobs[1]);
    pthread_join(w[0], NULL);
    total = jobs[0].evens + jobs[1].evens;
    pthread_join(w[1], NULL);
    assert(total == 4);
    return 0;
}
