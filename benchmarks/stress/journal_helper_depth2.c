/*
 * stress/journal_helper_depth2.c -- bug inside a helper two call levels deep,
 * called from several threads. Threads log events through log_event, which
 * asks next_slot for a free journal position.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: data race (lost update)
 * Faulty lines: 30, 31. next_slot reads (30) and advances (31) the journal
 *   length without synchronisation; two threads can get the same slot and
 *   one event is lost.
 *
 * Failing interleaving (5 context switches):
 *   main: L66,L67,L68 create net N, disk D and ui U; L69 join(N) blocks
 *   N:    event 10: log_event -> next_slot: L30 n = 0                  [switch 1]
 *   D:    event 20: L30 n = 0, L31 jlen = 1, L38 journal[0] = 20; D ends [switch 2]
 *   N:    L31 jlen = 1, journal[0] = 10; event 11: slot 1, jlen = 2; N ends [switch 3]
 *   U:    event 30: slot 2, jlen = 3; U ends                           [switch 4]
 *   main: joins; L72 fails (jlen is 3, not 4)                          [switch 5]
 */
#include <pthread.h>
#include <assert.h>

#define CAP 4

int journal[CAP];
int jlen = 0;

int next_slot(void)
{
  int n = jlen;
  jlen = n + 1;
  return n;
}

void log_event(int code)
{
  int n = next_slot();
  journal[n] = code;
}

void *net_thread(void *arg)
{
  (void)arg;
  log_event(10);
  log_event(11);
  return 0;
}

void *disk_thread(void *arg)
{
  (void)arg;
  log_event(20);
  return 0;
}

void *ui_thread(void *arg)
{
  (void)arg;
  log_event(30);
  return 0;
}

int main(void)
{
  pthread_t n, d, u;
  pthread_create(&n, 0, net_thread, 0);
  pthread_create(&d, 0, disk_thread, 0);
  pthread_create(&u, 0, ui_thread, 0);
  pthread_join(n, 0);
  pthread_join(d, 0);
  pthread_join(u, 0);
  assert(jlen == 4);
  return 0;
}
