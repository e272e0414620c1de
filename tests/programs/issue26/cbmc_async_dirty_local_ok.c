// seqloc-expect: no-failure
// The twin of cbmc_async_dirty_local_fail.c without the write after the spawn: the
// shared `level` outlives `start`'s return (CBMC keeps a dirty local's object for the
// thread), so the thread reads 1 whenever it runs.
void check(int *p)
{
  __CPROVER_assert(*p == 1, "level read as set before the spawn");
}

void start(void)
{
  int level = 1;
__CPROVER_ASYNC_1:
  check(&level);
}

int main(void)
{
  start();
  return 0;
}
