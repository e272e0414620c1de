/*
 * correct/seat_ok.c -- fixed version of concbugs/seat_check_then_act.c (seqloc benchmark).
 *
 * single-variable atomicity violation
 * (check-then-act). Two customers try to book the last seat; the booking
 * itself is done under a mutex.
 *
 * Fix: The availability test is made inside the critical section.
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

int seats_left = 1;
int booked[2];
pthread_mutex_t m;

void *customer(void *arg)
{
  int id = *(int *)arg;
  pthread_mutex_lock(&m);
  if (seats_left > 0) {
    seats_left = seats_left - 1;
    booked[id] = 1;
  }
  pthread_mutex_unlock(&m);
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
