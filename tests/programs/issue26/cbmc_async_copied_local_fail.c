// seqloc-expect: failure 9
// The copy of main's local `n` the `__CPROVER_ASYNC_1:` thread gets is taken at the
// spawn, after main's write at line 9: once the thread has run, `seen` is 2.
int seen;
void look(int v) { seen = v; }
int main() {
  int n = 1;
  int unused = 0;
  n = 2;
  __CPROVER_ASYNC_1: look(n);
  __CPROVER_assert(seen != 2, "the thread saw the first value");
  return unused;
}
