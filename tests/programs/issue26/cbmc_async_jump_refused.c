// seqloc-expect: refused CPROVER_ASYNC_2
// The statement `__CPROVER_ASYNC_2:` starts in a new thread returns from main: the thread
// has no main to return from. Refused by name.
int x;
int main() {
  __CPROVER_ASYNC_2: if (x == 0) return 1;
  __CPROVER_assert(x == 0, "x stays 0");
  return 0;
}
