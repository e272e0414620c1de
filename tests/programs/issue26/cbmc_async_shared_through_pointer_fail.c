// seqloc-expect: failure 14
// main takes the address of its local `n`, so CBMC shares it with the thread started
// by `__CPROVER_ASYNC_1:` instead of copying it (a "dirty" local): the write through
// `where` after the spawn reaches the thread's read of `n`. seqloc moves `n` to the
// heap and hands the thread the object itself.
int seen;
int *where;
void look(int v) { seen = v; }
int main() {
  int n = 1;
  where = &n;
  __CPROVER_ASYNC_1: look(n);
  // The worker may not have read `n` yet.
  *where = 2;
  __CPROVER_assert(seen != 2, "the worker saw the first value");
  return 0;
}
