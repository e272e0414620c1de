/* A playlist: songs are queued at the end under the playlist's mutex; a request jumps
 * the queue. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct song {
    int id;
    struct song *next;
};

static struct song *playlist;
static pthread_mutex_t playlist_mu = PTHREAD_MUTEX_INITIALIZER;

static struct song *song_new(int id)
{
    struct song *s = malloc(sizeof *s);
    assert(s != NULL);
    s->id = id;
    s->next = NULL;
    return s;
}

static void enqueue(int id)
{
    struct song *s = song_new(id);
    struct song **at;

    pthread_mutex_lock(&playlist_mu);
    at = &playlist;
    while (*at != NULL)
        at = &(*at)->next;
    *at = s;
    pthread_mutex_unlock(&playlist_mu);
}

static void play_next(int id)
{
    struct song *s = song_new(id);
    s->next = playlist;
    playlist = s;
}

static void *radio(void *arg)
{
    (void)arg;
    enqueue(1);
    enqueue(2);
    return NULL;
}

static void *listener(void *arg)
{
    (void)arg;
    play_next(7);
    return NULL;
}

int main(void)
{
    pthread_t r, l;
    int songs = 0;
    pthread_create(&r, NULL, radio, NULL);
    pthread_create(&l, NULL, listener, NULL);
    pthread_join(r, NULL);
    pthread_join(l, NULL);
    for (struct song *s = playlist; s != NULL; s = s->next)
        songs++;
    assert(songs == 3);
    return 0;
}
