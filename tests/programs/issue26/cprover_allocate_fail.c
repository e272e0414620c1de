// seqloc-expect: failure 11
// CBMC's `__CPROVER_allocate(size, 1)` gives a zeroed object that is never null. The
// allocator raises `ready` (line 11) before it stores the value, so main may read 0.
int *object;
_Bool ready;

void allocator(void)
{
  int *o = __CPROVER_allocate(sizeof(int), 1);
  object = o;
  ready = 1;
  *o = 42;
}

int main()
{
  __CPROVER_ASYNC_1: allocator();
  __CPROVER_assume(ready);
  __CPROVER_assert(*object == 42, "object value");
  return 0;
}
