/*
 * Two workers each square the input of their own slot. main hands both the first slot:
 * the second slot is never worked on, and the total misses its square.
 * Faulty line: 31 (the second worker's slot is `&slots[1]`).
 */
#include <pthread.h>
#include <assert.h>

struct slot {
  int input;
  int output;
};

struct slot slots[2];

void *square(void *arg)
{
  struct slot *s = arg;
  s->output = s->input * s->input;
  return 0;
}

int main(void)
{
  pthread_t a, b;
  int total;
  slots[0].input = 2;
  slots[1].input = 3;
  pthread_create(&a, 0, square, &slots[0]);
  pthread_join(a, 0);
  pthread_create(&b, 0, square, &slots[0]);
  pthread_join(b, 0);
  total = slots[0].output + slots[1].output;
  assert(total == 13);
  return 0;
}
