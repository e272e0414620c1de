#include <assert.h>
int x = 0;
int main(void) {
  x = 1;
  assert(x == 2);
  return 0;
}
