// A pricer thread fills the price table; a summing thread only reads it. main starts
// both at once (line 32), so the sum can run before the prices are set. Faulty line: 32
// (start the summer after the pricer is joined).
#include <pthread.h>
#include <assert.h>

#define ITEMS 3

int price[ITEMS];
int total;

void *pricer(void *arg) {
  int i;
  (void)arg;
  for (i = 0; i < ITEMS; i++)
    price[i] = 10 + i;
  return 0;
}

void *summer(void *arg) {
  int i, s = 0;
  (void)arg;
  for (i = 0; i < ITEMS; i++)
    s = s + price[i];
  total = s;
  return 0;
}

int main(void) {
  pthread_t p, s;
  pthread_create(&p, 0, pricer, 0);
  pthread_create(&s, 0, summer, 0);
  pthread_join(p, 0);
  pthread_join(s, 0);
  assert(total == 33);
  return 0;
}
