// seqloc-expect: failure 12
// Tickets from atomic_fetch_add are unique, but the returned counter is read again with
// atomic_load instead of using the value fetch_add returned: both threads can see 2.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int next_ticket;
int served[3];
void *worker(void *arg) {
  atomic_fetch_add(&next_ticket, 1);
  // The line to fix: the ticket is the value atomic_fetch_add returned (plus one).
  int mine = atomic_load(&next_ticket);
  served[mine]++;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(served[1] == 1 && served[2] == 1);
  return 0;
}
