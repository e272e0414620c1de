/* Integer semantics the printer must keep: widths, signedness, promotions, casts, shifts. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

int main(void)
{
  signed char sc = -128;
  unsigned char uc = 200;
  short sh = -300;
  unsigned short us = 65535;
  long long ll = -9000000000LL;
  unsigned long long ull = 18446744073709551615ULL;
  uint8_t u8 = 255;
  int32_t i32 = INT_MIN;
  _Bool b = 42;

  u8++;
  us += 2;
  sc = (signed char)(sc - 1);
  int promoted = uc + uc;
  unsigned int mixed = (unsigned)-1 + 2u;
  long long shifted = (ll >> 3) ^ (1LL << 40);
  unsigned int rot = (0x80000001u << 1) | (0x80000001u >> 31);
  int neg_div = -7 / 2, neg_mod = -7 % 2;
  int cmp = -1 < 1u;

  printf("%d %d %d %u %lld %llu %u %d %d\n", sc, promoted, sh, (unsigned)us, ll, ull, (unsigned)u8, i32, b);
  printf("%u %lld %u %d %d %d\n", mixed, shifted, rot, neg_div, neg_mod, cmp);
  printf("%zu %zu %zu\n", sizeof(short), sizeof(long long), sizeof(uc + uc));
  return (promoted + neg_div) & 0x3f;
}
