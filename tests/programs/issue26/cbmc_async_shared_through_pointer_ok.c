// seqloc-expect: no-failure
// The twin of cbmc_async_shared_through_pointer_fail.c with the write through `where`
// before the spawn: the shared `n` is 2 whenever the worker reads it, and `seen` is
// never the stale 1.
int seen;
int *where;
void look(int v) { seen = v; }
int main() {
  int n = 1;
  where = &n;
  *where = 2;
  __CPROVER_ASYNC_1: look(n);
  __CPROVER_assert(seen != 1, "the worker saw the stale value");
  return 0;
}
