/* expect: no-repair */
/* faulty: 22
 * Each packer fills its own slot of `weight` with box + items, where a
 * box weighs 5 and holds three items of 4 each; line 22 counts two items
 * instead of three, so every packer computes 13, not 17, and main's check
 * of 2 * 17 fails in every interleaving. There is no data race (each thread
 * owns its slot, `done` is locked): no lock, atomic section, reordering or
 * lock-order change helps; the fix is the constant itself (count = 3). */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int weight[2];
int done = 0;

void *packer(void *arg)
{
  int slot = *(int *)arg;
  int box = 5;
  int item = 4;
  int count;
  count = 2;
  int total = box + count * item;
  weight[slot] = total;
  pthread_mutex_lock(&m);
  done = done + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  int s1 = 0;
  int s2 = 1;
  pthread_create(&t1, 0, packer, &s1);
  pthread_create(&t2, 0, packer, &s2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(done == 2);
  assert(weight[0] + weight[1] == 34);
  return 0;
}
