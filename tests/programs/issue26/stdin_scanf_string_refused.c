// seqloc-expect: refused scanf
// `%s` without a width writes as many characters as the input holds, past any buffer:
// not modelled, refused by name rather than given a bound the program does not have.
#include <stdio.h>
#include <pthread.h>
#include <assert.h>

char name[16];

int main(void)
{
  if (scanf("%s", name) != 1)
    return 1;
  assert(name[0] != 0);
  return 0;
}
