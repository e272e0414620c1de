// seqloc-expect: failure 12
// C89's implicit int, as test-case reducers leave it: globals, a pointer and functions
// declared without a type. The worker's read and write of `count` are two steps, so
// the two workers may both read 0 and the count ends at 1.
#include <assert.h>
#include <pthread.h>
count;
*slot;
pthread_t t1, t2;
worker()
{
  count = count + 1;
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
