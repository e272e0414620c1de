/*
 * seeds/session_audit_lock_cycle_bad.c -- lock-order cycle over three mutexes,
 * closed through helper functions. A connection server keeps three tables:
 * connections, sessions and an audit log, each with its own mutex. The
 * intended order is conn_lock, then session_lock, then audit_lock.
 *
 * Expected verdict: false (no-deadlock)
 * Bug class: deadlock (lock-order cycle across three locks)
 * Faulty lines: 76, 77. The auditor locks audit_lock (L76) and then calls
 *   count_conns (L77), which takes conn_lock: audit -> conn closes the cycle
 *   conn -> session (acceptor, via open_session) -> audit (expirer, via
 *   audit_add). The auditor must count the connections before it takes
 *   audit_lock.
 *
 * Deadlocking interleaving (3 context switches):
 *   main: L88-L90 create acceptor A, expirer E, auditor U; L91 join(A) blocks
 *   A:    L56 locks conn_lock, L57 open_conns = 1, L58 calls open_session [switch 1]
 *   E:    L66 locks session_lock, L67 live_sessions = 0, L68 calls audit_add [switch 2]
 *   U:    L76 locks audit_lock, L77 count_conns: L47 blocks on conn_lock [switch 3]
 *   A's next step (L32 in open_session) needs session_lock, E's (L39 in
 *   audit_add) needs audit_lock: main, A, E and U are all blocked.
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
  (void)arg;
  pthread_mutex_lock(&audit_lock);
  audit_records = audit_records + count_conns();
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
