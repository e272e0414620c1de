// seqloc-expect: refused atomic_load
// `atomic_load` called without <stdatomic.h> and before any declaration is taken for C11's
// (as ESBMC and CBMC accept), but this program defines its own later: that call meant the
// program's function, so it is refused rather than given C11's meaning.
#include <pthread.h>
#include <assert.h>
int x = 3;
int main(void) {
  int v = atomic_load(&x);
  assert(v == 4);
  return 0;
}
int atomic_load(int *p) { return *p + 1; }
