/*
 * seeds/traffic_meter_read_then_write_ok.c -- fixed version of seeds/traffic_meter_read_then_write_bad.c (seqloc benchmark).
 *
 * lost update through two
 * helpers. A traffic meter (a struct with its own mutex) counts uploaded
 * bytes; two uploaders each account for two chunks through meter_add,
 * which builds on the meter's locked accessors meter_read and meter_write.
 *
 * Fix: meter_add reads and updates the count in one critical section (under the meter's mutex).
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "traffic_meter_read_then_write_ok.c", 17, "reach_error"); }
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
  pthread_mutex_lock(&m->lock);
  m->bytes = m->bytes + n;
  pthread_mutex_unlock(&m->lock);
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
