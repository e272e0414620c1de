/*
 * correct/journal_ok.c -- fixed version of stress/journal_helper_depth2.c (seqloc benchmark).
 *
 * bug inside a helper two call levels deep,
 * called from several threads. Threads log events through log_event, which
 * asks next_slot for a free journal position.
 *
 * Fix: next_slot reads and advances the journal length under a mutex.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

#define CAP 4

int journal[CAP];
int jlen = 0;
pthread_mutex_t jlock = PTHREAD_MUTEX_INITIALIZER;

int next_slot(void)
{
  int n;
  pthread_mutex_lock(&jlock);
  n = jlen;
  jlen = n + 1;
  pthread_mutex_unlock(&jlock);
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
