// seqloc-expect: no-failure
// C89's implicit int, as test-case reducers leave it: globals, a pointer and functions
// declared without a type. Each worker's update is one atomic section.
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
count;
*slot;
pthread_t t1, t2;
worker()
{
  __VERIFIER_atomic_begin();
  count = count + 1;
  __VERIFIER_atomic_end();
  return 0;
}
main()
{
  slot = &count;
  pthread_create(&t1, 0, (void *(*)(void *))worker, 0);
  pthread_create(&t2, 0, (void *(*)(void *))worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(*slot == 2);
}
