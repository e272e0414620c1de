// seqloc-expect: no-failure
// CBMC's thread started by `__CPROVER_ASYNC_1:` gets a copy of main's local `n` as it is
// at the spawn (1): its own write goes to its copy, main's later write to main's, so the
// thread can only see 1 + 5.
int seen;
void look(int v) { seen = v; }
int main() {
  int n = 1;
  __CPROVER_ASYNC_1: { n = n + 5; look(n); }
  n = 2;
  __CPROVER_assert(n == 2 && seen != 2 && seen != 7, "the thread saw its own copy");
  return 0;
}
