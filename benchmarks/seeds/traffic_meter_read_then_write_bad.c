/*
 * seeds/traffic_meter_read_then_write_bad.c -- lost update through two
 * helpers. A traffic meter (a struct with its own mutex) counts uploaded
 * bytes; two uploaders each account for two chunks through meter_add,
 * which builds on the meter's locked accessors meter_read and meter_write.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (read-modify-write split over two helpers)
 * Faulty lines: 61, 62. meter_add reads the count through meter_read
 *   (L61) and stores the sum through meter_write (L62); each helper locks
 *   on its own, so the other uploader can update the meter in between and
 *   its bytes are overwritten. The read and the write belong in one
 *   critical section.
 *
 * Failing interleaving (4 context switches):
 *   main: L86,L87 create uploaders U1 (100, 50) and U2 (200, 25);
 *         L88 join(U1) blocks
 *   U1:   L70 meter_add: L61 meter_read: L47 seen = 0          [switch 1]
 *   U2:   both chunks: bytes = 200, then 225; U2 ends              [switch 2]
 *   U1:   L62 meter_write: L55 bytes = 100; second chunk: bytes = 150;
 *         U1 ends                                                  [switch 3]
 *   main: joins; L90 fails (150 != 375)                          [switch 4]
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "traffic_meter_read_then_write_bad.c", 28, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

struct meter {
  pthread_mutex_t lock;
  int bytes;
};

struct upload {
  struct meter *m;
  int chunk[2];
};

struct meter traffic;

static int meter_read(struct meter *m)
{
  int v;
  pthread_mutex_lock(&m->lock);
  v = m->bytes;
  pthread_mutex_unlock(&m->lock);
  return v;
}

static void meter_write(struct meter *m, int v)
{
  pthread_mutex_lock(&m->lock);
  m->bytes = v;
  pthread_mutex_unlock(&m->lock);
}

static void meter_add(struct meter *m, int n)
{
  int seen = meter_read(m);
  meter_write(m, seen + n);
}

void *uploader(void *arg)
{
  struct upload *u = arg;
  int i;
  for (i = 0; i < 2; i++)
    meter_add(u->m, u->chunk[i]);
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  struct upload a, b;
  pthread_mutex_init(&traffic.lock, 0);
  meter_write(&traffic, 0);
  a.m = &traffic;
  a.chunk[0] = 100;
  a.chunk[1] = 50;
  b.m = &traffic;
  b.chunk[0] = 200;
  b.chunk[1] = 25;
  pthread_create(&t1, 0, uploader, &a);
  pthread_create(&t2, 0, uploader, &b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  __VERIFIER_assert(meter_read(&traffic) == 375);
  return 0;
}
