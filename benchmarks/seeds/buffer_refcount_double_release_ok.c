/*
 * seeds/buffer_refcount_double_release_ok.c -- fixed version of seeds/buffer_refcount_double_release_bad.c (seqloc benchmark).
 *
 * use after free through a
 * reference count that reaches 0 twice. main takes a buffer from a static
 * pool and hands it, holding two references, to two consumers (one lease
 * each); the consumer that drops the last reference recycles the buffer
 * into the free pool, which poisons it (it may be handed out again).
 *
 * Fix: buf_put reads the remaining count before it releases ref_lock.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "buffer_refcount_double_release_ok.c", 18, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define BUF_LIVE 0x5a
#define BUF_FREE 0x0f

struct buffer {
  int refs;
  int magic;
  int data[2];
  struct buffer *next_free;
};

struct lease {
  struct buffer *buf;
  int sum;
};

pthread_mutex_t ref_lock;
struct buffer slab[2];          /* the pool's storage */
struct buffer *free_pool = 0;

static void buf_recycle(struct buffer *b)
{
  __VERIFIER_assert(b->magic == BUF_LIVE);
  b->magic = BUF_FREE;
  b->next_free = free_pool;
  free_pool = b;
}

static void buf_put(struct buffer *b)
{
  int left;
  pthread_mutex_lock(&ref_lock);
  b->refs = b->refs - 1;
  left = b->refs;
  pthread_mutex_unlock(&ref_lock);
  if (left == 0)
    buf_recycle(b);
}

void *consumer(void *arg)
{
  struct lease *l = arg;
  l->sum = l->buf->data[0] + l->buf->data[1];
  buf_put(l->buf);
  return 0;
}

int main(void)
{
  pthread_t a, c;
  struct lease la, lc;
  struct buffer *b = &slab[0];
  free_pool = &slab[1];
  b->refs = 2;
  b->magic = BUF_LIVE;
  b->data[0] = 3;
  b->data[1] = 4;
  b->next_free = 0;
  la.buf = b;
  lc.buf = b;
  pthread_mutex_init(&ref_lock, 0);
  pthread_create(&a, 0, consumer, &la);
  pthread_create(&c, 0, consumer, &lc);
  pthread_join(a, 0);
  pthread_join(c, 0);
  return 0;
}
