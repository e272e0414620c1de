/*
 * concbugs/seat_check_then_act.c -- single-variable atomicity violation
 * (check-then-act). Two customers try to book the last seat; the booking
 * itself is done under a mutex.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (check-then-act)
 * Faulty lines: 30, 31. The availability test (30) is made before the
 *   mutex is taken (L31), so both customers can pass it for the one seat.
 *   The test belongs inside the critical section.
 *
 * Failing interleaving (4 context switches):
 *   main: L44,L45 create customers C0, C1; L46 join(C0) blocks
 *   C0:   L30 seats_left is 1                                          [switch 1]
 *   C1:   L30 seats_left is 1, L31 lock, L32 seats_left = 0, L33 booked[1] = 1,
 *         unlock; C1 ends                                              [switch 2]
 *   C0:   L31 lock, L32 seats_left = -1, L33 booked[0] = 1, unlock; C0 ends [switch 3]
 *   main: joins; L48 assertion fails (two bookings for one seat)       [switch 4]
 */
#include <pthread.h>
#include <assert.h>

int seats_left = 1;
int booked[2];
pthread_mutex_t m;

void *customer(void *arg)
{
  int id = *(int *)arg;
  if (seats_left > 0) {
    pthread_mutex_lock(&m);
    seats_left = seats_left - 1;
    booked[id] = 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void)
{
  pthread_t t0, t1;
  int id0 = 0, id1 = 1;
  pthread_mutex_init(&m, 0);
  pthread_create(&t0, 0, customer, &id0);
  pthread_create(&t1, 0, customer, &id1);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  assert(booked[0] + booked[1] <= 1);
  return 0;
}
