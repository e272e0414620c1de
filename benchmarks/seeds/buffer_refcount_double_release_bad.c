/*
 * seeds/buffer_refcount_double_release_bad.c -- use after free through a
 * reference count that reaches 0 twice. main takes a buffer from a static
 * pool and hands it, holding two references, to two consumers (one lease
 * each); the consumer that drops the last reference recycles the buffer
 * into the free pool, which poisons it (it may be handed out again).
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (reference count re-read after the unlock)
 * Faulty lines: 61, 62. buf_put drops the reference under ref_lock but releases
 *   the mutex (L61) before it reads the remaining count (L62); both consumers
 *   can read 0, and the second one recycles a buffer that is already back
 *   in the pool. The count must be read inside the critical section.
 *
 * Failing interleaving (3 context switches):
 *   main: L89,L90 create consumers A, B; L91 join(A) blocks
 *   A:    L70 reads the buffer, L60 refs = 1, L61 unlock     [switch 1]
 *   B:    L70 reads the buffer, L60 refs = 0, L61 unlock, L62 left = 0;
 *         L64 recycle: L50 magic is live, L51 magic = BUF_FREE; B ends [switch 2]
 *   A:    L62 left = 0, L64 recycle: L50 fails (magic is BUF_FREE) [switch 3]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "buffer_refcount_double_release_bad.c", 26, "reach_error"); }
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
  pthread_mutex_unlock(&ref_lock);
  left = b->refs;
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
