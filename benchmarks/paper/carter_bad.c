/*
 * paper/carter_bad.c -- seqloc benchmark, Table III pattern "carter_bad".
 * A database-style locking protocol: reader and writer counts kept under one
 * mutex decide who may touch a record (key, value), whose invariant is
 * value == 3 * key. Readers and writers give up instead of waiting.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation
 * Faulty lines: 54, 55, 58, 59. begin_write checks that nobody
 *   is inside (L54) and registers the writer (L59) in two separate
 *   critical sections (L55 releases the mutex, L58 takes it again), so a
 *   reader can register in between and read a half-written record.
 *
 * Failing interleaving (4 context switches):
 *   main: L100,L101,L102 create writer W and readers R1, R2; L103 join(W) blocks
 *   W:    L54 busy = 0, L55 unlock                                     [switch 1]
 *   R1:   L35 writers == 0, readers = 1; L87 k = 0                     [switch 2]
 *   W:    L58 lock, L59 writers = 1, unlock; L75 key = 4, L76 value = 12
 *                                                                      [switch 3]
 *   R1:   L88 v = 12; L90 assertion fails (12 != 3 * 0)                [switch 4]
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t gate;
int readers = 0;
int writers = 0;
int rec_key = 0;
int rec_val = 0;

int begin_read(void)
{
  int ok = 0;
  pthread_mutex_lock(&gate);
  if (writers == 0) {
    readers = readers + 1;
    ok = 1;
  }
  pthread_mutex_unlock(&gate);
  return ok;
}

void end_read(void)
{
  pthread_mutex_lock(&gate);
  readers = readers - 1;
  pthread_mutex_unlock(&gate);
}

int begin_write(void)
{
  int busy;
  pthread_mutex_lock(&gate);
  busy = readers + writers;
  pthread_mutex_unlock(&gate);
  if (busy != 0)
    return 0;
  pthread_mutex_lock(&gate);
  writers = writers + 1;
  pthread_mutex_unlock(&gate);
  return 1;
}

void end_write(void)
{
  pthread_mutex_lock(&gate);
  writers = writers - 1;
  pthread_mutex_unlock(&gate);
}

void *writer(void *arg)
{
  int k = *(int *)arg;
  if (begin_write()) {
    rec_key = k;
    rec_val = 3 * k;
    end_write();
  }
  return 0;
}

void *reader(void *arg)
{
  int k, v;
  (void)arg;
  if (begin_read()) {
    k = rec_key;
    v = rec_val;
    end_read();
    assert(v == 3 * k);
  }
  return 0;
}

int main(void)
{
  pthread_t w, r1, r2;
  int key = 4;
  pthread_mutex_init(&gate, 0);
  pthread_create(&w, 0, writer, &key);
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r1, 0);
  pthread_join(r2, 0);
  return 0;
}
