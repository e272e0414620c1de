/* Every statement kind: nested loops with break/continue, switch fall-through, goto, early return. */
#include <stdio.h>

static int classify(int n)
{
  switch (n % 5) {
  case 0:
    return 10;
  case 1:
  case 2:
    n = n * 2;
    /* fall through */
  case 3:
    n += 1;
    break;
  default:
    n = -n;
  }
  return n;
}

static int search(int (*m)[4], int rows, int want)
{
  int r, c;
  for (r = 0; r < rows; r++) {
    for (c = 0; c < 4; c++) {
      if (m[r][c] < 0)
        continue;
      if (m[r][c] == want)
        goto found;
    }
  }
  return -1;
found:
  return r * 4 + c;
}

int main(void)
{
  int m[3][4] = { { 1, -2, 3, 4 }, { 5, 6, -7, 8 }, { 9, 10, 11, 12 } };
  int total = 0, i = 0;
  while (1) {
    if (++i > 12)
      break;
    total += classify(i);
  }
  do {
    total -= 3;
  } while (total > 50);
  for (;;) {
    total++;
    if (total % 7 == 0)
      break;
  }
  printf("%d %d %d\n", total, search(m, 3, 11), search(m, 3, -7));
  return total % 32;
}
