// seqloc-expect: refused atoi
// A loop over the arguments: `argv[i]` may name a string converted before, so the
// number is not a fresh input; refused rather than guessed.
#include <stdlib.h>
#include <assert.h>

int main(int argc, char **argv)
{
  int sum = 0;
  for (int i = 1; i < argc && i < 3; i++)
    sum += atoi(argv[i]);
  assert(sum >= -2147483647 - 1);
  return 0;
}
