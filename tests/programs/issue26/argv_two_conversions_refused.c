// seqloc-expect: refused strtol
// One string converted two ways (decimal, then hexadecimal): the two numbers are related
// as the string relates them, which seqloc does not model; it refuses the second
// conversion rather than take them for independent inputs.
#include <stdlib.h>
#include <assert.h>

int main(int argc, char **argv)
{
  if (argc < 2)
    return 0;
  long dec = atol(argv[1]);
  long hex = strtol(argv[1], 0, 16);
  assert(dec <= hex || dec > hex);
  return 0;
}
