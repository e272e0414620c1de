// seqloc-expect: failure 14
// CBMC's `__CPROVER_ASYNC_1:` copies the locals the statement names (`a` and `b`,
// whose addresses nobody takes) at the spawn. The copy sees the extra increment of `b`
// made before the spawn.
void check(int a, int b)
{
  __CPROVER_assert(a + b == 3, "the pair as configured");
}

int main(void)
{
  int a = 1;
  int b = 2;
  b = b + 1;
__CPROVER_ASYNC_1:
  check(a, b);
  return 0;
}
