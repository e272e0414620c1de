// seqloc-expect: no-failure
// The twin of cbmc_async_copied_locals_fail.c: the spawner changes `a` and `b` only
// after the spawn, and the thread holds copies taken at the spawn (CBMC's rule for
// locals whose addresses nobody takes), so its check holds whenever it runs.
void check(int a, int b)
{
  __CPROVER_assert(a + b == 3, "the pair as configured");
}

int main(void)
{
  int a = 1;
  int b = 2;
__CPROVER_ASYNC_1:
  check(a, b);
  a = 10;
  b = 20;
  return 0;
}
