// Booking a seat: book() tests the seat under `seats_lock` (line 19), releases the lock
// while it prints the ticket, and takes it back to mark the seat taken (line 28). Two
// customers can both find the seat free. Faulty lines: 25, 27 (the unlock and the lock
// that split the test from the update; one critical section is the fix).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t seats_lock = PTHREAD_MUTEX_INITIALIZER;
int taken[2];
int tickets;

int print_ticket(int seat) {
  return 100 + seat;
}

int book(int seat) {
  int t;
  pthread_mutex_lock(&seats_lock);
  if (taken[seat]) {
    pthread_mutex_unlock(&seats_lock);
    return 0;
  }
  assert(tickets == 0);
  tickets = tickets + 1;
  pthread_mutex_unlock(&seats_lock);
  t = print_ticket(seat);
  pthread_mutex_lock(&seats_lock);
  taken[seat] = 1;
  pthread_mutex_unlock(&seats_lock);
  return t;
}

void *customer(void *arg) {
  (void)arg;
  book(1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, customer, 0);
  pthread_create(&b, 0, customer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
