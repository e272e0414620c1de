// seqloc-expect: no-failure
// The twin of cprover_allocate_fail.c: the allocator stores the value before it raises
// `ready`, and `__CPROVER_allocate` never answers null.
int *object;
_Bool ready;

void allocator(void)
{
  int *o = __CPROVER_allocate(sizeof(int), 0);
  *o = 42;
  object = o;
  ready = 1;
}

int main()
{
  __CPROVER_ASYNC_1: allocator();
  __CPROVER_assume(ready);
  __CPROVER_assert(object != 0 && *object == 42, "object value");
  return 0;
}
