// seqloc-expect: failure 17
// CBMC's `__CPROVER_ASYNC_1:` hands the new thread a copy of the spawner's locals,
// except a local whose address is taken (a "dirty" one): that one the two threads
// share. Here the thread gets `&level`, so `level` is shared, and the spawner's later
// write can reach the thread before its check.
void check(int *p)
{
  __CPROVER_assert(*p == 1, "level read as set before the spawn");
}

void start(void)
{
  int level = 1;
__CPROVER_ASYNC_1:
  check(&level);
  // The thread may not have read `level` yet.
  level = 2;
}

int main(void)
{
  start();
  return 0;
}
