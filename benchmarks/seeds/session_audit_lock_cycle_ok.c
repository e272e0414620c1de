/*
 * seeds/session_audit_lock_cycle_ok.c -- fixed version of seeds/session_audit_lock_cycle_bad.c (seqloc benchmark).
 *
 * lock-order cycle over three mutexes,
 * closed through helper functions. A connection server keeps three tables:
 * connections, sessions and an audit log, each with its own mutex. The
 * intended order is conn_lock, then session_lock, then audit_lock.
 *
 * Fix: The auditor counts the connections (conn_lock) before it takes audit_lock.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

pthread_mutex_t conn_lock, session_lock, audit_lock;
int open_conns = 0;
int live_sessions = 1;
int audit_records = 0;

static void open_session(void)
{
  pthread_mutex_lock(&session_lock);
  live_sessions = live_sessions + 1;
  pthread_mutex_unlock(&session_lock);
}

static void audit_add(int n)
{
  pthread_mutex_lock(&audit_lock);
  audit_records = audit_records + n;
  pthread_mutex_unlock(&audit_lock);
}

static int count_conns(void)
{
  int n;
  pthread_mutex_lock(&conn_lock);
  n = open_conns;
  pthread_mutex_unlock(&conn_lock);
  return n;
}

void *acceptor(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&conn_lock);
  open_conns = open_conns + 1;
  open_session();
  pthread_mutex_unlock(&conn_lock);
  return 0;
}

void *expirer(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&session_lock);
  live_sessions = live_sessions - 1;
  audit_add(1);
  pthread_mutex_unlock(&session_lock);
  return 0;
}

void *auditor(void *arg)
{
  int n;
  (void)arg;
  n = count_conns();
  pthread_mutex_lock(&audit_lock);
  audit_records = audit_records + n;
  pthread_mutex_unlock(&audit_lock);
  return 0;
}

int main(void)
{
  pthread_t a, e, u;
  pthread_mutex_init(&conn_lock, 0);
  pthread_mutex_init(&session_lock, 0);
  pthread_mutex_init(&audit_lock, 0);
  pthread_create(&a, 0, acceptor, 0);
  pthread_create(&e, 0, expirer, 0);
  pthread_create(&u, 0, auditor, 0);
  pthread_join(a, 0);
  pthread_join(e, 0);
  pthread_join(u, 0);
  return 0;
}
