// seqloc-expect: deadlock 17
// Two spinlocks taken in opposite orders: each thread spins forever on the lock the
// other holds.
#include <pthread.h>
pthread_spinlock_t accounts, audit;
int balance, entries;
void *deposit(void *arg) {
  pthread_spin_lock(&accounts);
  pthread_spin_lock(&audit);
  balance += 10;
  entries++;
  pthread_spin_unlock(&audit);
  pthread_spin_unlock(&accounts);
  return 0;
}
void *report(void *arg) {
  pthread_spin_lock(&audit);
  pthread_spin_lock(&accounts);
  entries++;
  pthread_spin_unlock(&accounts);
  pthread_spin_unlock(&audit);
  return 0;
}
int main(void) {
  pthread_spin_init(&accounts, 0);
  pthread_spin_init(&audit, 0);
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, report, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
