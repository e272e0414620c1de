// seqloc-expect: refused CPROVER_ASYNC_1
// main takes the address of its local `n`, so CBMC shares it with the thread started by
// `__CPROVER_ASYNC_1:` instead of copying it; POSIX threads have no such sharing:
// refused by name.
int seen;
int *where;
void look(int v) { seen = v; }
int main() {
  int n = 1;
  where = &n;
  __CPROVER_ASYNC_1: look(n);
  *where = 2;
  __CPROVER_assert(seen != 2, "the worker saw the first value");
  return 0;
}
