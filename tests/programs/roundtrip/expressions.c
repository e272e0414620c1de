/* Expression forms: comma, ternary chains, compound assignment of every operator, ++/--,
 * logical short-circuit with side effects, sizeof of expressions, string literals. */
#include <stdio.h>

static int calls;
static int touch(int v) { calls++; return v; }

int main(void)
{
  int a = 5, b = 3, c;
  int arr[5] = { 0 };
  int *p = arr;
  const char *msg = "seq" "loc";
  a += b; a -= 1; a *= 3; a /= 2; a %= 7; a <<= 2; a >>= 1; a &= 0xe; a |= 1; a ^= 5;
  c = (b++, b + 1);
  *p++ = a;
  *++p = c;
  p[1] = p[-2] + 4;
  int t = touch(0) && touch(1);
  t += touch(1) || touch(2);
  t += a > b ? b > c ? 1 : 2 : 3;
  int size = (int)(sizeof arr / sizeof arr[0]);
  char last = msg[sizeof("seqloc") - 2];
  printf("%d %d %d %d %d %d %d %d %c %s\n", a, b, c, arr[0], arr[2], arr[3], t, calls, last, msg + 3);
  return (a + b + c + size) % 64;
}
