/* Two request threads ask a token cache for the same user; a miss mints a token. */
#include <assert.h>
#include <pthread.h>

#define USERS 2

struct token_cache {
    pthread_mutex_t lock;
    int minted;
    int token[USERS];
};

static struct token_cache cache = { PTHREAD_MUTEX_INITIALIZER, 0, { 0, 0 } };

static int mint_token(int user)
{
    return 1000 + user;
}

static int token_for(struct token_cache *c, int user)
{
    pthread_mutex_lock(&c->lock);
    int t = c->token[user];
    if (t == 0) {
        pthread_mutex_unlock(&c->lock);
        t = mint_token(user);
        pthread_mutex_lock(&c->lock);
        c->token[user] = t;
        c->minted++;
    }
    pthread_mutex_unlock(&c->lock);
    return t;
}

static void *request(void *arg)
{
    int user = *(int *)arg;
    int t = token_for(&cache, user);
    assert(t == 1000 + user);
    return NULL;
}

int main(void)
{
    static int who[2] = { 1, 1 };
    pthread_t a, b;
    pthread_create(&a, NULL, request, &who[0]);
    pthread_create(&b, NULL, request, &who[1]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(cache.minted == 1);
    return 0;
}
