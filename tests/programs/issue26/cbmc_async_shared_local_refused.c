// seqloc-expect: refused CPROVER_ASYNC_1
// CBMC's thread started by `__CPROVER_ASYNC_1:` shares main's local `n` and sees main's
// later write to it; POSIX threads have no such sharing: refused by name.
int seen;
void look(int v) { seen = v; }
int main() {
  int n = 1;
  __CPROVER_ASYNC_1: look(n);
  n = 2;
  __CPROVER_assert(seen != 2, "the worker saw the first value");
  return 0;
}
