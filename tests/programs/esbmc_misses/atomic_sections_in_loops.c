/* Two threads grow each other's counter in a loop, each step in an explicit atomic
 * section; alternating steps let `a` pass the bound main checks. Faulty lines: 16 and 26
 * (each step reads the other counter in a section of its own: the growth depends on the
 * order). CBMC shows the sections' begins as steps of no place in its trace. */
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int a = 1, b = 1;

void *grow_a(void *arg)
{
  for (int k = 0; k < 3; k++) {
    __VERIFIER_atomic_begin();
    a = a + b;
    __VERIFIER_atomic_end();
  }
  return arg;
}

void *grow_b(void *arg)
{
  for (int k = 0; k < 3; k++) {
    __VERIFIER_atomic_begin();
    b = b + a;
    __VERIFIER_atomic_end();
  }
  return arg;
}

int main(void)
{
  pthread_t t1, t2;
  pthread_create(&t1, 0, grow_a, 0);
  pthread_create(&t2, 0, grow_b, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a < 20);
  return 0;
}
