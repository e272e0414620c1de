#include <stdio.h>
#include <string.h>
#include <stdlib.h>
struct pt { int x, y; };
union u { unsigned int i; unsigned char b[4]; };
enum color { RED, GREEN = 5, BLUE };
typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }
int grid[3][4] = { [1] = { [2] = 7 }, [2][3] = 9 };
const char *names[] = { "zero", "one", "two" };
int main(void) {
  struct pt p = { .y = 2, .x = 1 };
  struct pt *pp = &p;
  union u v; v.i = 0x01020304u;
  binop ops[2] = { add, mul };
  unsigned char c = 250; c += 10;
  unsigned int w = 0; w--;
  int s = 0, i, j;
  for (i = 0; i < 3; i++) for (j = 0; j < 4; j++) s += grid[i][j] * (i + 1);
  do { s ^= 3; } while (s > 100);
  switch (s % 4) { case 0: s++; case 1: s += 2; break; default: s--; }
  i = (j = 3, j * 2);
  s = s > 10 ? s : -s;
  pp->x <<= 3; p.y %= 2;
  if (s < 0) goto out;
  s += (int)sizeof(struct pt) + (int)sizeof grid;
out:
  printf("%d %d %d %u %u %d %d %s %d %d\n", s, p.x, p.y, (unsigned)c, w, ops[0](2,3), ops[1](4,5), names[BLUE - GREEN], i, (int)strlen(names[2]));
  char buf[16]; snprintf(buf, sizeof buf, "%x", v.i);
  puts(buf);
  return s & 7;
}
